//! The benchmark workload against PostgreSQL (`cargo xtask bench --db postgres://...`): each
//! run gets a schema of its own, so it neither sees nor leaves rules in the database's own
//! tables, and drops it afterwards. The server of the HTTP rows is pointed at that schema
//! through its URL.

use active_memory_client::{ActiveMemoryClient, ClientConfig, PostgresOptions, PostgresRuleStore};
use anyhow::{Context, Result};

/// A client over a fresh schema of the database at `url`, and the store to drop it with.
pub(crate) async fn open(url: &str) -> Result<(ActiveMemoryClient, PostgresRuleStore)> {
    let schema = format!(
        "toolmem_bench_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|elapsed| elapsed.as_micros())
            .unwrap_or_default()
    );
    let options = PostgresOptions {
        schema: Some(schema),
        ..PostgresOptions::default()
    };
    let clock = std::sync::Arc::clone(&options.services.clock);
    let store = PostgresRuleStore::open(url, options)
        .await
        .context("opening the benchmark's PostgreSQL database")?;
    let client = ActiveMemoryClient::from_parts(std::sync::Arc::new(store.clone()), clock)
        .with_config(ClientConfig::default());
    Ok((client, store))
}

/// `url` with its connections' `search_path` set to `schema`, for a `toolmem serve` that takes
/// a URL and no schema: the option is appended to the URL's own `options` (which a later
/// `options` parameter would replace), or added as one. `schema` holds only lower-case letters,
/// digits and `_`, which need no escaping.
pub(crate) fn url_in_schema(url: &str, schema: &str) -> String {
    let option = format!("-c%20search_path%3D{schema}");
    let Some((base, query)) = url.split_once('?') else {
        return format!("{url}?options={option}");
    };
    let mut parameters: Vec<String> = query
        .split('&')
        .filter(|parameter| !parameter.is_empty())
        .map(str::to_owned)
        .collect();
    // The last `options` is the one the connection uses.
    match parameters
        .iter_mut()
        .rev()
        .find(|parameter| parameter.starts_with("options="))
    {
        Some(given) => given.push_str(&format!("%20{option}")),
        None => parameters.push(format!("options={option}")),
    }
    format!("{base}?{}", parameters.join("&"))
}

#[cfg(test)]
mod tests {
    use super::url_in_schema;

    #[test]
    fn the_schema_joins_the_urls_options() {
        for (url, expected) in [
            (
                "postgres://u@h/db",
                "postgres://u@h/db?options=-c%20search_path%3Dbench_1",
            ),
            (
                "postgres://u@h/db?",
                "postgres://u@h/db?options=-c%20search_path%3Dbench_1",
            ),
            (
                "postgres://u@h/db?connect_timeout=5",
                "postgres://u@h/db?connect_timeout=5&options=-c%20search_path%3Dbench_1",
            ),
            (
                "postgres://u@h/db?options=-c%20synchronous_commit%3Doff&connect_timeout=5",
                "postgres://u@h/db?options=-c%20synchronous_commit%3Doff%20-c%20search_path%3Dbench_1&connect_timeout=5",
            ),
            (
                "postgres://u@h/db?options=-c%20a%3D1&options=-c%20b%3D2",
                "postgres://u@h/db?options=-c%20a%3D1&options=-c%20b%3D2%20-c%20search_path%3Dbench_1",
            ),
        ] {
            assert_eq!(url_in_schema(url, "bench_1"), expected, "{url}");
        }
    }
}
