//! The HTTP pieces the two servers share (`memory_mcp --http` and `agentbox
//! view`): framing with deadlines (`wire`) and reading a `Host` or an
//! `Origin`'s authority. What each server accepts is its own business.

pub mod wire;

/// The host of `host[:port]` (an IPv6 literal keeps its brackets), if
/// the rest is nothing or a port.
pub fn host_part(authority: &str) -> Option<&str> {
    let host = if authority.starts_with('[') {
        authority.find(']').map(|end| &authority[..=end])?
    } else {
        authority.split(':').next().unwrap_or(authority)
    };
    let port = &authority[host.len()..];
    let port_ok = port.is_empty()
        || port.strip_prefix(':').is_some_and(|p| {
            !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
        });
    (port_ok && !host.is_empty()).then_some(host)
}
