//! No two modules of a crate use each other in a circle, directly or through others: each
//! module can then be read, and changed, after the ones it uses. The graph is read from the
//! source (`crate::` paths, names re-exported by `lib.rs`, `super::`), test modules left out.
//!
//! It covers the crates whose layout issue 20 settled: core, the store contract and its two
//! database backends, prompt, capture, guard, the facade and RPC. None is known: capture's
//! `edict` and `revocation` share their phrase helpers through `tokens`, not through each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

const CRATES: &[&str] = &[
    "tool_memory_core",
    "tool_memory_store",
    "tool_memory_store_sqlite",
    "tool_memory_store_postgres",
    "tool_memory_prompt",
    "tool_memory_capture",
    "tool_memory_guard",
    "active_memory_client",
    "memory_rpc",
];

/// The circles that may remain, each as its sorted modules.
const KNOWN: &[(&str, &[&str])] = &[];

type Graph = BTreeMap<String, BTreeSet<String>>;

#[test]
fn no_two_modules_of_a_crate_use_each_other_in_a_circle() -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates");
    let mut found = Vec::new();
    for name in CRATES {
        let graph = module_graph(&root.join(name).join("src"))?;
        assert!(graph.len() > 1, "{name}: no modules read");
        for circle in circles(&graph) {
            found.push((name.to_string(), circle));
        }
    }
    let known: Vec<(String, Vec<String>)> = KNOWN
        .iter()
        .map(|(name, modules)| {
            let modules = modules.iter().map(|module| module.to_string()).collect();
            (name.to_string(), modules)
        })
        .collect();
    assert_eq!(found, known, "circles between modules (crate, modules)");
    Ok(())
}

/// The reader finds a circle where there is one, through a re-exported name, a module path and
/// `super::`, and none in a chain.
#[test]
fn the_reader_sees_circles_through_every_kind_of_path() {
    let lib = "mod a;\nmod b;\npub use crate::a::{Alpha, alpha};\n";
    let graph = graph_of(
        lib,
        &[
            ("a", "use crate::b::Beta;\n"),
            ("b", "fn f() { crate::Alpha::new(); }\n"),
            ("c", "// crate::a::Alpha in a comment is no use\n"),
            ("d", "use crate::{c::{self}, Alpha};\n"),
            ("d::e", "use super::f;\n"),
        ],
    );
    assert_eq!(circles(&graph), [vec!["a".to_owned(), "b".to_owned()]]);
    assert!(graph["d"].contains("c") && graph["d"].contains("a"));
    assert!(graph["d::e"].contains("d"));
    assert!(graph["c"].is_empty());
}

/// Every module file under `src` (nested ones as `parent::child`) and the modules it uses.
fn module_graph(src: &Path) -> Result<Graph> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).context("lib.rs")?;
    let mut files = Vec::new();
    collect(src, src, &mut files)?;
    let mut sources = Vec::new();
    for (module, path) in files {
        let text = std::fs::read_to_string(&path).with_context(|| path.display().to_string())?;
        sources.push((module, text));
    }
    let borrowed: Vec<(&str, &str)> = sources
        .iter()
        .map(|(module, text)| (module.as_str(), text.as_str()))
        .collect();
    Ok(graph_of(&lib, &borrowed))
}

fn collect(src: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(src, &path, files)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let relative = path.strip_prefix(src)?.with_extension("");
            let module = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("::");
            if module != "lib" && module != "main" {
                files.push((module, path));
            }
        }
    }
    Ok(())
}

/// The graph of `modules` (name, source), with the names `lib` re-exports resolved to the
/// module that defines them.
fn graph_of(lib: &str, modules: &[(&str, &str)]) -> Graph {
    let names: BTreeSet<&str> = modules.iter().map(|(module, _)| *module).collect();
    let mut exported: BTreeMap<String, String> = BTreeMap::new();
    for path in crate_paths(&code(lib)) {
        if let Some((module, item)) = path.rsplit_once("::") {
            exported.insert(item.to_owned(), module.to_owned());
        }
    }
    let mut graph = Graph::new();
    for (module, source) in modules {
        let mut uses = BTreeSet::new();
        let code = code(source);
        for path in crate_paths(&code) {
            let segments: Vec<&str> = path.split("::").collect();
            let target = (1..=segments.len())
                .rev()
                .map(|len| segments[..len].join("::"))
                .find(|prefix| names.contains(prefix.as_str()))
                .or_else(|| exported.get(segments[0]).cloned());
            uses.extend(target);
        }
        if let Some((parent, _)) = module.rsplit_once("::")
            && code.contains("super::")
        {
            uses.insert(parent.to_owned());
        }
        uses.remove(*module);
        graph.insert((*module).to_owned(), uses);
    }
    graph
}

/// The source without comments and without its unit tests.
fn code(source: &str) -> String {
    let source = source
        .find("#[cfg(test)]\nmod tests")
        .map_or(source, |end| &source[..end]);
    source
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path after `crate::`, groups expanded: `crate::{a::B, c}` gives `a::B` and `c`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(start) = rest.find("crate::") {
        let after = &rest[start + "crate::".len()..];
        let (found, used) = path_at(after);
        paths.extend(found);
        rest = &after[used..];
    }
    paths
}

/// The paths that start at the beginning of `text`, and how many bytes they took.
fn path_at(text: &str) -> (Vec<String>, usize) {
    let bytes = text.as_bytes();
    let mut position = 0;
    let mut segments: Vec<&str> = Vec::new();
    loop {
        if bytes.get(position) == Some(&b'{') {
            let mut paths = Vec::new();
            position += 1;
            loop {
                while bytes
                    .get(position)
                    .is_some_and(|byte| byte.is_ascii_whitespace() || *byte == b',')
                {
                    position += 1;
                }
                match bytes.get(position) {
                    None => return (paths, position),
                    Some(b'}') => return (paths, position + 1),
                    Some(_) => {}
                }
                let (inner, used) = path_at(&text[position..]);
                if used == 0 {
                    // Not a path (`*`, `self`'s punctuation...): step over it.
                    position += 1;
                    continue;
                }
                let prefix = segments.join("::");
                paths.extend(inner.into_iter().map(|path| match prefix.as_str() {
                    "" => path,
                    _ if path == "self" => prefix.clone(),
                    _ => format!("{prefix}::{path}"),
                }));
                position += used;
            }
        }
        let length = text[position..]
            .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
            .unwrap_or(text.len() - position);
        if length == 0 {
            break;
        }
        segments.push(&text[position..position + length]);
        position += length;
        if text[position..].starts_with("::") {
            position += 2;
        } else {
            break;
        }
    }
    let paths = if segments.is_empty() {
        Vec::new()
    } else {
        vec![segments.join("::")]
    };
    (paths, position)
}

/// The strongly connected groups of more than one module, each sorted, in order.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    let reaches = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(module) = stack.pop() {
            for next in graph.get(&module).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> = graph
        .keys()
        .map(|module| (module, reaches(module)))
        .collect();
    let mut circles: Vec<Vec<String>> = Vec::new();
    for module in graph.keys() {
        let mut circle: Vec<String> = graph
            .keys()
            .filter(|other| {
                *other == module
                    || (reach[module].contains(*other) && reach[other].contains(module))
            })
            .cloned()
            .collect();
        circle.sort();
        if circle.len() > 1 && !circles.contains(&circle) {
            circles.push(circle);
        }
    }
    circles
}
