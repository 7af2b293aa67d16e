//! The `toolmem` binary under another name, for end-to-end tests: it calls the same
//! `toolmem::main` as the real binary, so the tests start the real program as an OS process
//! (cargo only tells a package's tests where that package's own binaries are).

fn main() -> std::process::ExitCode {
    toolmem::main()
}
