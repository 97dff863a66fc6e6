//! The executable: argv → exit code (`cli::run`).
//!
//! On linux with glibc the C `main` is ours (`no_main`) and std's runtime
//! start-up is skipped: `platform::c_main` says what that saves, what it
//! keeps and what it assumes. build.rs sets `agentbox_no_main` there;
//! elsewhere, or built with `AGENTBOX_PLAIN_MAIN=1`, this is a plain
//! `fn main` under std's start-up, with the same behaviour.
#![cfg_attr(all(agentbox_no_main, not(test)), no_main)]

#[cfg(all(agentbox_no_main, not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // exit, not return: it flushes std's stdout as std's start-up would.
    std::process::exit(agentbox::platform::c_main(agentbox::cli::run))
}

#[cfg(not(all(agentbox_no_main, not(test))))]
fn main() {
    // std's start-up has opened descriptors 0-2 and ignored SIGPIPE, and a
    // panic that escapes `cli::run`'s own guard ends with 101.
    std::process::exit(agentbox::cli::run())
}
