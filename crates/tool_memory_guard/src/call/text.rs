//! One string of a call, lower-cased, with the normal forms (addresses, hosts, URLs, paths,
//! name words) that matchers compare, each computed once on first use.

use std::cell::OnceCell;

use crate::normalize::{
    UrlParts, bare_host, chunks, host_of_chunk, is_domain_like, normalize_email, normalize_path,
    normalize_url, path_candidates, percent_decoded, person_tokens,
};

/// One string of a call, lower-cased, with the normal forms matchers compare computed on
/// first use.
#[derive(Debug, Clone)]
pub(crate) struct Text {
    pub(crate) lower: String,
    /// The text as written, when it differs from `lower`: the command parser reads it, since
    /// a short flag's case is part of it (`git branch -d` is not `-D`).
    original: Option<Box<str>>,
    /// Under a recipient-like key.
    pub(crate) recipient: bool,
    /// A joined argv array, used only to find invocations (its elements are texts too).
    pub(crate) command_only: bool,
    /// Boxed on first use: most texts of most checks never need one.
    forms: OnceCell<Box<Forms>>,
}

/// The candidate literals of a text in normal form. Every rule of a kind compares with the
/// same list, so a text is normalised once per check rather than once per candidate rule:
/// a megabyte of paths checked against many path rules cost seconds of allocation otherwise.
#[derive(Debug, Clone, Default)]
struct Forms {
    emails: OnceCell<Vec<String>>,
    hosts: OnceCell<Vec<String>>,
    urls: OnceCell<Vec<UrlParts>>,
    paths: OnceCell<Vec<String>>,
    person_tokens: OnceCell<Vec<(usize, usize)>>,
    host_names: OnceCell<Vec<String>>,
}

/// Options that name the host a command talks to.
const HOST_OPTIONS: &[&str] = &["--host", "--hostname", "--server", "-h", "-s"];

/// Whether an assignment's name is of the variables clients read their server from
/// (`PGHOST`, `MYSQL_HOST`, `REDIS_HOST`, `DB_HOST`): `PGHOST=db.prod.internal psql` connects
/// there as `psql -h db.prod.internal` does.
fn is_host_variable(name: &str) -> bool {
    name.ends_with("host")
        && name.len() > "host".len()
        && name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

impl Text {
    pub(crate) fn new(lower: String, recipient: bool, command_only: bool) -> Text {
        Text {
            lower,
            original: None,
            recipient,
            command_only,
            forms: OnceCell::new(),
        }
    }

    /// A text as written; its lower-case form is computed here.
    pub(crate) fn of(original: &str, recipient: bool, command_only: bool) -> Text {
        let lower = original.to_lowercase();
        let differs = lower != original;
        Text {
            original: differs.then(|| original.into()),
            ..Text::new(lower, recipient, command_only)
        }
    }

    /// The text as written (for the command parser).
    pub(crate) fn original(&self) -> &str {
        self.original.as_deref().unwrap_or(&self.lower)
    }

    fn forms(&self) -> &Forms {
        self.forms.get_or_init(Box::default)
    }

    /// What a matcher looking at this text costs: its bytes, and one for the text itself.
    pub(crate) fn weight(&self) -> usize {
        self.lower.len() + 1
    }

    /// The e-mail addresses in the text: every chunk with an `@` (or a percent-encoded one,
    /// `%40`) that normalises to one, and the addresses in a URL's query parameters
    /// (`https://api.example/send?to=kai%40gmail.com`, `mailto:a@b.com?cc=c@d.com`).
    pub(crate) fn emails(&self) -> &[String] {
        self.forms().emails.get_or_init(|| {
            let mut emails = Vec::new();
            for chunk in chunks(&self.lower) {
                let decoded;
                let chunk = if chunk.contains("%40") {
                    decoded = percent_decoded(chunk);
                    decoded.as_str()
                } else {
                    chunk
                };
                if !chunk.contains('@') {
                    continue;
                }
                emails.extend(normalize_email(chunk));
                if chunk.contains(['?', '&']) {
                    let parameters = chunk.split(['?', '&']).skip(1);
                    for parameter in parameters {
                        if let Some((_, value)) = parameter.split_once('=')
                            && let Some(email) = normalize_email(value)
                            && !emails.contains(&email)
                        {
                            emails.push(email);
                        }
                    }
                }
            }
            emails
        })
    }

    /// The hosts the text's chunks name (addresses' domains, URLs' hosts, dotted names, IPs).
    pub(crate) fn hosts(&self) -> &[String] {
        self.forms().hosts.get_or_init(|| {
            let mut hosts: Vec<String> = chunks(&self.lower).filter_map(host_of_chunk).collect();
            // A site's files live under its name: `/srv/www/shop.example.org/public` is
            // shop.example.org's.
            for chunk in chunks(&self.lower).filter(|chunk| chunk.contains('/')) {
                for component in chunk.split(['/', ':']).skip(1) {
                    if is_domain_like(component) && !hosts.iter().any(|host| host == component) {
                        hosts.push(component.to_owned());
                    }
                }
            }
            hosts
        })
    }

    /// The hosts the text names ([`Text::hosts`]), and the bare names given to a host option
    /// (`psql -h prod-db`, `--host=db-2`, `ssh deploy@web-1`): where a host's name is read.
    pub(crate) fn host_names(&self) -> &[String] {
        self.forms().host_names.get_or_init(|| {
            let mut names = self.hosts().to_vec();
            let mut after_option = false;
            for chunk in chunks(&self.lower) {
                let (option, value) = match chunk.split_once('=') {
                    Some((option, value)) => (option, Some(value)),
                    None => (chunk, None),
                };
                let named = match value {
                    Some(value) if HOST_OPTIONS.contains(&option) || is_host_variable(option) => {
                        Some(value)
                    }
                    _ if after_option => Some(chunk),
                    _ => None,
                };
                after_option = value.is_none() && HOST_OPTIONS.contains(&option);
                let named = named.or_else(|| chunk.rsplit_once('@').map(|(_, host)| host));
                if let Some(name) = named {
                    let host = bare_host(name);
                    if !host.is_empty() && !names.iter().any(|known| known == host) {
                        names.push(host.to_owned());
                    }
                }
            }
            names
        })
    }

    /// The URLs in the text (`scheme://...` or `www....`).
    pub(crate) fn urls(&self) -> &[UrlParts] {
        self.forms().urls.get_or_init(|| {
            chunks(&self.lower)
                .filter(|chunk| chunk.contains("://") || chunk.starts_with("www."))
                .filter_map(normalize_url)
                .collect()
        })
    }

    /// The paths the text may name, normalised. Only candidates with a path's shape (a `/`,
    /// `.`, `~` or `\\`) are kept: a word without one normalises to a bare relative name,
    /// which no anchored pattern covers and no relative pattern is compared with.
    pub(crate) fn paths(&self) -> &[String] {
        self.forms().paths.get_or_init(|| {
            chunks(&self.lower)
                .flat_map(path_candidates)
                .filter(|candidate| candidate.contains(['/', '.', '~', '\\']))
                .map(normalize_path)
                .collect()
        })
    }

    /// The name words of the text ([`person_tokens`]) as byte ranges of `lower`.
    pub(crate) fn person_tokens(&self) -> &[(usize, usize)] {
        self.forms().person_tokens.get_or_init(|| {
            let base = self.lower.as_ptr() as usize;
            person_tokens(&self.lower)
                .into_iter()
                .map(|token| {
                    let start = token.as_ptr() as usize - base;
                    (start, start + token.len())
                })
                .collect()
        })
    }
}
