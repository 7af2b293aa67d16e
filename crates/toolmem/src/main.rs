//! The `toolmem` binary: the JSON-RPC server and the command line. The server lands with
//! issue 5; until then every command says so and exits successfully.

fn main() {
    let command = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "serve".to_owned());
    println!(
        "toolmem {command}: not yet — the server and CLI are not built yet; the rule store, \
         prompt and capture crates are (see README.md)"
    );
}
