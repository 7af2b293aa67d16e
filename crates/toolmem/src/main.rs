//! The `toolmem` binary; everything it does is in the library's `toolmem::main`.

fn main() -> std::process::ExitCode {
    toolmem::main()
}
