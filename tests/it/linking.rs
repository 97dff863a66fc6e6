//! What the dynamic loader must load before any call of the executable can
//! start: every shared library is mapped, relocated and initialized at every
//! call of every tool (docs/PERFORMANCE.md, "Start-up: plain calls" and
//! "Ninth session"), so the executable needs only libc and the loader.
//! libm (its one function, `log`, is the libm crate's: `platform::log`) and
//! libgcc_s (the unwinder is linked in statically when the C compiler has
//! it: build.rs) stay out.

#![cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]

/// The `DT_NEEDED` names of a 64-bit little-endian ELF executable.
fn needed(elf: &[u8]) -> Vec<String> {
    let u16_at = |at: usize| u16::from_le_bytes(elf[at..at + 2].try_into().unwrap()) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(elf[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(elf[at..at + 8].try_into().unwrap());
    assert_eq!(
        &elf[..6],
        b"\x7fELF\x02\x01",
        "a 64-bit little-endian ELF file"
    );
    let (phoff, phentsize, phnum) = (u64_at(0x20) as usize, u16_at(0x36), u16_at(0x38));
    // (type, file offset, virtual address, size in the file) per segment.
    let segments: Vec<(u32, u64, u64, u64)> = (0..phnum)
        .map(|i| phoff + i * phentsize)
        .map(|h| (u32_at(h), u64_at(h + 8), u64_at(h + 16), u64_at(h + 32)))
        .collect();
    let offset_of = |vaddr: u64| {
        segments
            .iter()
            .find(|s| s.0 == 1 && (s.2..s.2 + s.3).contains(&vaddr))
            .map(|s| (vaddr - s.2 + s.1) as usize)
            .expect("the string table lies in a loaded segment")
    };
    let dynamic = segments
        .iter()
        .find(|s| s.0 == 2)
        .expect("a dynamically linked executable");
    let entries: Vec<(u64, u64)> = (dynamic.1..dynamic.1 + dynamic.3)
        .step_by(16)
        .map(|at| (u64_at(at as usize), u64_at(at as usize + 8)))
        .take_while(|e| e.0 != 0)
        .collect();
    let strtab = entries
        .iter()
        .find(|e| e.0 == 5)
        .map(|e| offset_of(e.1))
        .expect("DT_STRTAB");
    entries
        .iter()
        .filter(|e| e.0 == 1)
        .map(|e| {
            let name = &elf[strtab + e.1 as usize..];
            let end = name.iter().position(|&b| b == 0).unwrap();
            String::from_utf8_lossy(&name[..end]).into_owned()
        })
        .collect()
}

#[test]
fn the_executable_needs_only_libc() {
    let elf = std::fs::read(env!("CARGO_BIN_EXE_agentbox")).unwrap();
    let needed = needed(&elf);
    assert!(
        needed.iter().any(|n| n.starts_with("libc.so")),
        "libc is needed: {needed:?}"
    );
    assert!(
        !needed.iter().any(|n| n.starts_with("libm.so")),
        "something calls a libm function again (the libm crate has it): {needed:?}"
    );
    if option_env!("AGENTBOX_STATIC_UNWINDER").is_some() {
        assert!(
            !needed.iter().any(|n| n.starts_with("libgcc_s")),
            "the static unwinder was found, yet libgcc_s is needed: {needed:?}"
        );
    }
    let known = ["libc.so", "ld-linux", "libgcc_s"];
    assert!(
        needed
            .iter()
            .all(|n| known.iter().any(|k| n.starts_with(k))),
        "a shared library more to load at every call: {needed:?}"
    );
}
