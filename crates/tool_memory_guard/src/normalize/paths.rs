//! Paths as the guard compares them: the normal form of a path, and the patterns (with
//! `*`, `?` and `**`) a rule's path becomes.

/// The normal form of a path: lower-case, `/` separators, no duplicate slashes, no `.`
/// segments, `..` resolved where possible, no trailing slash (except the root itself).
pub(crate) fn normalize_path(raw: &str) -> String {
    let text = raw.trim().to_lowercase().replace('\\', "/");
    let absolute = text.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in text.split('/') {
        match part {
            "" | "." => {}
            ".." if parts
                .last()
                .is_some_and(|last| *last != ".." && *last != "~") =>
            {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// A path a rule names, ready to compare: absolute paths match at the root, relative ones
/// (and `~/...`) wherever their components occur in sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathPattern {
    pub(crate) display: String,
    pub(crate) anchored: bool,
    pub(crate) components: Vec<String>,
}

impl PathPattern {
    pub(crate) fn new(raw: &str) -> PathPattern {
        let display = normalize_path(raw);
        let anchored = display.starts_with('/');
        let relative = display.strip_prefix("~/").unwrap_or(&display);
        let mut components: Vec<String> = Vec::new();
        for part in relative.split('/') {
            if part.is_empty() || part == "~" {
                continue;
            }
            // `a/**/**/b` is `a/**/b`.
            if part == "**" && components.last().is_some_and(|last| last == "**") {
                continue;
            }
            components.push(part.to_owned());
        }
        // A pattern matches at or below what it names, so a trailing `*` or `**` (`~/.aws/*`,
        // `secrets/**`) adds nothing: it is the directory's contents.
        while components.len() > 1
            && components
                .last()
                .is_some_and(|last| last == "*" || last == "**")
        {
            components.pop();
        }
        PathPattern {
            display,
            anchored,
            components,
        }
    }

    /// Whether some component is a glob (`*`, `?`, `**`).
    fn is_glob(&self) -> bool {
        self.components
            .iter()
            .any(|component| component.contains(['*', '?']))
    }

    /// Glob semantics over the call path's components: `*` and `?` within one component,
    /// `**` for any number of whole components. Anchored patterns start at the root, relative
    /// ones anywhere; either matches at or below (the rest of the path is free). A table over
    /// (component, path part), so the work is their product whatever the stars.
    fn covers_glob(&self, parts: &[&str]) -> bool {
        let comps = &self.components;
        // reach[j]: the first j components can match the parts read so far, ending just
        // before the current part.
        let mut reach = vec![false; comps.len() + 1];
        reach[0] = true;
        for at in 0..=parts.len() {
            // A `**` matches no component too.
            for j in 0..comps.len() {
                if reach[j] && comps[j] == "**" {
                    reach[j + 1] = true;
                }
            }
            if reach[comps.len()] {
                return true;
            }
            let Some(part) = parts.get(at) else {
                break;
            };
            let mut next = vec![false; comps.len() + 1];
            // A relative pattern may start at any part.
            next[0] = !self.anchored;
            for j in 0..comps.len() {
                if !reach[j] {
                    continue;
                }
                if comps[j] == "**" {
                    next[j] = true;
                    next[j + 1] = true;
                } else if component_matches(&comps[j], part) {
                    next[j + 1] = true;
                }
            }
            reach = next;
        }
        reach[comps.len()]
    }

    /// Whether a normalised call path is this path or lies below it. The root `/` matches only
    /// itself (and `/*`): a rule about `rm -rf /` is not a rule about every absolute path.
    /// Allocates only for a relative pattern whose first component occurs in the path, since
    /// a check compares a rule with every path of the call.
    pub(crate) fn covers(&self, path: &str) -> bool {
        if self.components.is_empty() {
            return self.anchored && (path == "/" || path == "/*");
        }
        if self.is_glob() {
            if self.anchored && !path.starts_with('/') {
                return false;
            }
            let parts: Vec<&str> = path.split('/').filter(|part| !part.is_empty()).collect();
            return self.covers_glob(&parts);
        }
        let mut parts = path.split('/').filter(|part| !part.is_empty());
        if self.anchored {
            return path.starts_with('/')
                && self
                    .components
                    .iter()
                    .all(|component| parts.next() == Some(component.as_str()));
        }
        if !path.contains(self.components[0].as_str()) {
            return false;
        }
        let parts: Vec<&str> = parts.collect();
        parts
            .windows(self.components.len())
            .any(|window| window.iter().zip(&self.components).all(|(a, b)| a == b))
    }
}

/// Whether one path component matches a component pattern with `*` (any run of characters)
/// and `?` (one character). The classic two-pointer match: linear but for backtracking to
/// the last star, so at worst the product of the two lengths.
pub(crate) fn component_matches(pattern: &str, text: &str) -> bool {
    if !pattern.contains(['*', '?']) {
        return pattern == text;
    }
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&ch| ch == '*')
}

/// Whether a chunk can name a file: not a URL, and not an e-mail address.
pub(crate) fn path_candidates(chunk: &str) -> impl Iterator<Item = &str> {
    let usable = !chunk.contains("://") && !chunk.contains('@');
    let after_eq = chunk.split_once('=').map(|(_, value)| value);
    let after_colon = chunk
        .split_once(":/")
        .filter(|(head, _)| head.len() > 1)
        .map(|(_, tail)| &chunk[chunk.len() - tail.len() - 1..]);
    // A git refspec: `+release/2.4` forces `release/2.4`, `HEAD:release/2.4` pushes to it.
    let forced = chunk.strip_prefix('+').filter(|rest| !rest.is_empty());
    let refspec_target = chunk
        .split_once(':')
        .filter(|(head, tail)| head.len() > 1 && !head.contains('/') && !tail.is_empty())
        .map(|(_, tail)| tail.trim_start_matches('+'));
    [Some(chunk), after_eq, after_colon, forced, refspec_target]
        .into_iter()
        .flatten()
        .filter(move |_| usable)
}
