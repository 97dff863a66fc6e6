//! What a signal that ends agentbox must not leave behind: the child
//! processes it started (the Oda runtime) and its scratch folders (a skill
//! clone). The signal handlers (`cli`) call `before_exit` just before the
//! process ends. A handler may not allocate or take a lock, so the registries
//! are fixed arrays of atomics and the removal uses plain system calls.

use std::path::Path;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

/// How many children (and scratch folders) can be registered at once; one
/// call starts one runtime, so this is a wide margin.
const SLOTS: usize = 8;

static CHILDREN: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

/// A child process the signal handler kills and reaps if the process ends
/// while it runs. The owner reaps it itself on the normal path, after
/// `release`.
#[derive(Debug)]
pub struct ChildGuard(Option<usize>);

/// Registers a running child (by pid) for the signal handler.
pub fn register_child(pid: u32) -> ChildGuard {
    let Ok(pid) = i32::try_from(pid) else {
        return ChildGuard(None);
    };
    let free = CHILDREN.iter().position(|slot| {
        slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    ChildGuard(free)
}

impl ChildGuard {
    /// Takes the child back from the signal handler. `false` when the
    /// handler has already claimed it: it kills and reaps it and ends the
    /// process, so the caller must not reap it too.
    pub fn release(&mut self) -> bool {
        match self.0.take() {
            Some(i) => CHILDREN[i].swap(0, Ordering::SeqCst) != 0,
            None => true,
        }
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        self.release();
    }
}

/// Longest scratch path the handler can hold (a temp folder's path).
const PATH_MAX: usize = 1024;

/// One registered scratch folder: its path as a NUL-terminated C string,
/// written before `len` is published and read only while `len` is non-zero.
struct ScratchSlot {
    len: AtomicUsize,
    path: std::cell::UnsafeCell<[u8; PATH_MAX]>,
}

// SAFETY: `path` is written only by the owner of a slot it claimed (len was
// 0, set to usize::MAX while writing), and read by the handler only once the
// owner published its length.
unsafe impl Sync for ScratchSlot {}

/// A slot being filled: claimed, not readable yet.
const FILLING: usize = usize::MAX;

static SCRATCH: [ScratchSlot; SLOTS] = [const {
    ScratchSlot {
        len: AtomicUsize::new(0),
        path: std::cell::UnsafeCell::new([0; PATH_MAX]),
    }
}; SLOTS];

/// A scratch folder the signal handler removes if the process ends while it
/// exists. Its owner removes it on the normal path; dropping the guard only
/// unregisters it.
#[derive(Debug)]
pub struct ScratchGuard(Option<usize>);

/// Registers a scratch folder (an absolute path) for the signal handler.
/// A path too long to hold is not registered (it is still removed on the
/// normal path).
pub fn register_scratch(path: &Path) -> ScratchGuard {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    if bytes.is_empty() || bytes.len() >= PATH_MAX || bytes.contains(&0) {
        return ScratchGuard(None);
    }
    for (i, slot) in SCRATCH.iter().enumerate() {
        if slot
            .len
            .compare_exchange(0, FILLING, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            // SAFETY: this slot is ours (claimed above) and not yet readable.
            let buf = unsafe { &mut *slot.path.get() };
            buf[..bytes.len()].copy_from_slice(bytes);
            buf[bytes.len()] = 0;
            slot.len.store(bytes.len(), Ordering::SeqCst);
            return ScratchGuard(Some(i));
        }
    }
    ScratchGuard(None)
}

impl Drop for ScratchGuard {
    fn drop(&mut self) {
        if let Some(i) = self.0.take() {
            SCRATCH[i].len.store(0, Ordering::SeqCst);
        }
    }
}

/// Called by the signal handlers before the process ends: kills and reaps
/// every registered child, and removes every registered scratch folder.
/// Async-signal-safe: atomics, kill, waitpid and the *at() calls only.
pub fn before_exit() {
    for slot in &CHILDREN {
        let pid = slot.swap(0, Ordering::SeqCst);
        if pid > 0 {
            // SAFETY: plain system calls on a child this process started and
            // has not reaped (its owner gives it up with `release` first).
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                while libc::waitpid(pid, std::ptr::null_mut(), 0) < 0
                    && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
                {
                }
            }
        }
    }
    for slot in &SCRATCH {
        let len = slot.len.swap(0, Ordering::SeqCst);
        if len == 0 || len == FILLING {
            continue;
        }
        // SAFETY: the path was published (NUL-terminated) before `len`.
        let path = unsafe { &*slot.path.get() };
        remove_tree(libc::AT_FDCWD, path.as_ptr().cast(), 0);
    }
}

/// How deep `remove_tree` goes (each level holds one descriptor).
const MAX_DEPTH: usize = 64;

/// Removes `name` (relative to `dir`) and everything below it without
/// following symlinks, with system calls alone (getdents64 on a descriptor,
/// unlinkat): no allocation, no lock. `true` when it is gone.
fn remove_tree(dir: libc::c_int, name: *const libc::c_char, depth: usize) -> bool {
    // SAFETY: `name` is a NUL-terminated string; the descriptor is closed
    // before returning; the buffer is a local array.
    unsafe {
        if libc::unlinkat(dir, name, 0) == 0 {
            return true;
        }
        if depth >= MAX_DEPTH {
            return false;
        }
        let fd = libc::openat(
            dir,
            name,
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return false;
        }
        let mut buf = [0u8; 4096];
        loop {
            let n = libc::syscall(
                libc::SYS_getdents64,
                fd,
                buf.as_mut_ptr(),
                buf.len() as libc::c_uint,
            );
            if n <= 0 {
                break;
            }
            let n = n as usize;
            let mut at = 0;
            let mut removed = false;
            // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name
            while at + 19 < n {
                let reclen = u16::from_ne_bytes([buf[at + 16], buf[at + 17]]) as usize;
                if reclen == 0 {
                    break;
                }
                let entry = buf.as_ptr().add(at + 19).cast::<libc::c_char>();
                let dot = *entry == b'.' as libc::c_char
                    && (*entry.add(1) == 0
                        || (*entry.add(1) == b'.' as libc::c_char && *entry.add(2) == 0));
                if !dot && remove_tree(fd, entry, depth + 1) {
                    removed = true;
                }
                at += reclen;
            }
            // Entries were removed under the reader: read the folder from its
            // start again (each pass removes something, so this ends).
            if removed {
                libc::lseek(fd, 0, libc::SEEK_SET);
            }
        }
        libc::close(fd);
        libc::unlinkat(dir, name, libc::AT_REMOVEDIR) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_is_removed_without_following_links() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), "kept").unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let root = scratch.path().join("clone");
        let mut deep = root.clone();
        for i in 0..5 {
            deep.push(format!("d{i}"));
        }
        std::fs::create_dir_all(&deep).unwrap();
        for i in 0..300 {
            std::fs::write(root.join(format!("f{i:03}-{}", "x".repeat(40))), "x").unwrap();
        }
        std::fs::write(deep.join("leaf"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("link")).unwrap();
        std::os::unix::fs::symlink(outside.path(), deep.join("link")).unwrap();
        let c = std::ffi::CString::new(root.to_str().unwrap()).unwrap();
        assert!(remove_tree(libc::AT_FDCWD, c.as_ptr(), 0));
        assert!(!root.exists());
        assert_eq!(
            std::fs::read_to_string(outside.path().join("keep")).unwrap(),
            "kept"
        );
    }
}
