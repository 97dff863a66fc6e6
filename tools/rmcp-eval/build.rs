//! The link settings of agentbox's own build.rs (a copy: a build script's
//! cfg reaches only its own package), so that the prototype's plain calls
//! start as agentbox's do (docs/PERFORMANCE.md, "Start-up: plain calls").

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rerun-if-env-changed=AGENTBOX_PLAIN_MAIN");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // The executable's own C `main` (src/main.rs) needs glibc, which hands
    // argc and argv to std through `.init_array` (`platform::c_main` says
    // why); `AGENTBOX_PLAIN_MAIN=1` builds the plain `fn main` anyway.
    println!("cargo::rustc-check-cfg=cfg(agentbox_no_main)");
    let plain = std::env::var_os("AGENTBOX_PLAIN_MAIN").is_some_and(|v| !v.is_empty() && v != "0");
    if os == "linux" && env == "gnu" && !plain {
        println!("cargo:rustc-cfg=agentbox_no_main");
    }
    if os == "linux" && env == "gnu" && static_unwinder_found() {
        // The unwinder (panics unwind to the call's `internal` envelope)
        // from GCC's static libgcc_eh instead of the shared libgcc_s, which
        // the linker then drops (rustc links with --as-needed): one library
        // fewer to load at every call, and none of its constructor's `cpuid`
        // instructions, each a VM exit on a virtual machine (about 0.2 ms of
        // every call on the reference VM). Hardening is unchanged.
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
        // tests/it/linking.rs then checks that libgcc_s is not loaded.
        println!("cargo:rustc-env=AGENTBOX_STATIC_UNWINDER=1");
    }
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

/// Whether the C compiler that links the executable (rustc's default
/// linker, `cc`, or `$CC`) has GCC's static unwinder: it prints the
/// archive's full path, or only its name when it has none (a compiler
/// without GCC's runtime); then the shared libgcc_s stays.
fn static_unwinder_found() -> bool {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    Command::new(cc)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .is_some_and(|path| {
            let path = Path::new(path.trim());
            path.is_absolute() && path.is_file()
        })
}
