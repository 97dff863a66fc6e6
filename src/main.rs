//! The executable: argv → exit code (`cli::run`).
//!
//! The C `main` is ours (`no_main`): std's runtime start-up is skipped. Of
//! what it does, a call needs two things, done here; the rest (the main
//! thread's stack guard, read from /proc/self/maps, and a stack-overflow
//! message) cost a sixth of a plain call's instructions. A stack overflow
//! still ends the process, as a plain SIGSEGV.
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: fcntl and open on the standard descriptors, and signal with
    // SIG_IGN, touch no memory of ours.
    unsafe {
        // Descriptors 0-2 open: a call started with one closed would
        // otherwise open its first file there, and print into it.
        for fd in 0..3 {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
            {
                libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            }
        }
        // A closed stdout is an EPIPE error (the output layer ends quietly),
        // not a killing signal.
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    // A panic may not unwind out of a C function: one that escaped
    // `cli::run`'s own guard ends with 101, as under std's start-up.
    let code = std::panic::catch_unwind(agentbox::cli::run).unwrap_or(101);
    // exit, not return: it flushes std's stdout as std's start-up would.
    std::process::exit(code)
}
