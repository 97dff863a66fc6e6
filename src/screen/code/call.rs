//! One call as the walkers hand it over ([`Call`]: the callee normalised,
//! the arguments evaluated), and the names of the calls that move data
//! over the network ([`FETCHERS`], [`SENDERS`]), which `calls::apply` and
//! the handlers of `io` both consult.

use super::Lang;
use super::eval::Val;

/// One call, its callee normalised and its arguments evaluated.
pub(super) struct Call {
    /// Dotted name with import aliases resolved (`os.system`,
    /// `urllib.request.urlopen`), or the bare method name for a method on a value.
    pub name: String,
    /// The receiver of a method call on a value.
    pub recv: Option<Val>,
    pub args: Vec<Val>,
    /// Keyword arguments (`shell=True`, `data=…`, PowerShell `-OutFile`), lower-cased names.
    pub kw: Vec<(String, Val)>,
    pub line: usize,
    pub lang: Lang,
}

impl Call {
    pub(super) fn kw(&self, k: &str) -> Option<&Val> {
        self.kw.iter().find(|(n, _)| n == k).map(|(_, v)| v)
    }
    pub(super) fn arg(&self, i: usize) -> Option<&Val> {
        self.args.get(i)
    }
    pub(super) fn all(&self) -> Vec<&Val> {
        self.recv
            .iter()
            .chain(self.args.iter())
            .chain(self.kw.iter().map(|(_, v)| v))
            .collect()
    }
}

/// Plain downloads returning the body.
pub(super) const FETCHERS: &[&str] = &[
    "urlopen",
    "urllib.request.urlopen",
    "urllib2.urlopen",
    "fetch",
    "uri.open",
    "open-uri",
    "net::http.get",
    "lwp::simple::get",
    "get",
    "getstore",
    "downloadstring",
    "downloaddata",
    "downloadfile",
    "invoke-webrequest",
    "iwr",
    "invoke-restmethod",
    "irm",
    "wget",
    "curl",
    "urlretrieve",
    "urllib.request.urlretrieve",
    "http.get",
    "https.get",
    "axios",
    "axios.get",
    "got",
    "needle",
    "request",
    "requests.get",
    "httpx.get",
    "session.get",
    "open_uri",
];
/// Methods that send a request with a body.
pub(super) const SENDERS: &[&str] = &[
    "post",
    "put",
    "patch",
    "post_form",
    "request_post",
    "sendmail",
    "send_message",
    "storbinary",
];

/// Whether the full name or the last component is in `list`.
pub(super) fn is(list: &[&str], name: &str, last: &str) -> bool {
    list.contains(&name) || list.contains(&last)
}
