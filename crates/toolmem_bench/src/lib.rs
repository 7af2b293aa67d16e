//! The standard benchmark workload behind `cargo xtask bench`: the operations users feel,
//! through the facade on a file-backed SQLite database with the default durability (the path
//! the server uses, minus HTTP), plus capture, JSON-RPC over loopback HTTP to the real
//! `toolmem serve`, that server's peak memory, `toolmem hook` as a process per call, and a bare-SQLite baseline in the reference's
//! layout. The JSON lines it prints are the contract; see docs/performance.md.
//!
//! It is a crate of its own so that the product binary carries no benchmark and no SQLite of
//! its own; the HTTP rows therefore measure the `toolmem` executable the caller names, as a
//! separate process. The library is the binary's body, so that the test suite can run the
//! workload at a tiny size; like the `toolmem` crate, it reports errors with `anyhow`.

mod baseline;
mod hook;
mod postgres;
mod row;
mod run;
mod server;
mod workload;

pub use crate::row::{Row, print};
pub use crate::run::{BenchOptions, run};

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    /// The modules each module of this crate names (`crate::NAME`), read from the sources.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut sources = BTreeMap::new();
        for entry in std::fs::read_dir(&src).expect("src") {
            let path = entry.expect("entry").path();
            let stem = path.file_stem().and_then(|stem| stem.to_str());
            if let Some(name) = stem.filter(|name| !["lib", "main"].contains(name)) {
                let text = std::fs::read_to_string(&path).expect("module source");
                sources.insert(name.to_owned(), text);
            }
        }
        let names: BTreeSet<String> = sources.keys().cloned().collect();
        sources
            .iter()
            .map(|(module, text)| {
                let named = names
                    .iter()
                    .filter(|other| *other != module)
                    .filter(|other| text.contains(&format!("crate::{other}")))
                    .cloned()
                    .collect();
                (module.clone(), named)
            })
            .collect()
    }

    /// The benchmark once lived in `toolmem` as two modules that imported each other; here the
    /// shared pieces (`row`, `workload`) sit below the modules that use them.
    #[test]
    fn no_modules_import_each_other_in_a_circle() {
        let imports = imports();
        assert!(imports.contains_key("baseline") && imports.contains_key("run"));
        // Depth-first from every module; a module met again on the current path closes a
        // circle.
        fn visit(
            module: &str,
            imports: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
        ) {
            if let Some(start) = path.iter().position(|seen| seen == module) {
                panic!(
                    "modules import each other in a circle: {:?}",
                    &path[start..]
                );
            }
            path.push(module.to_owned());
            for next in imports.get(module).into_iter().flatten() {
                visit(next, imports, path);
            }
            path.pop();
        }
        for module in imports.keys() {
            visit(module, &imports, &mut Vec::new());
        }
    }
}
