//! Link settings of the `agentbox` executable (docs/PERFORMANCE.md,
//! "Start-up: plain calls").

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // Only with the `fast-start` feature: both weaken the executable's
    // hardening (Cargo.toml says why it is opt-in).
    let fast = std::env::var_os("CARGO_FEATURE_FAST_START").is_some();
    if fast && os == "linux" && env == "gnu" {
        // A position-dependent executable: the linker resolves the ~66,000
        // relative relocations of a PIE (every vtable, string table and
        // static pointer) at link time, so the loader does not patch them,
        // and the pages holding them are not copied, on every call.
        println!("cargo:rustc-link-arg-bins=-no-pie");
        // Lazy binding (rustc links with -z now): the loader looks up a
        // library function when it is first called, not all ~170 of them on
        // every start (-15 % of a plain call's instructions). The GOT stays
        // writable (partial RELRO), the cost of it.
        println!("cargo:rustc-link-arg-bins=-Wl,-z,lazy");
    }
}
