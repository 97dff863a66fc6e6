//! The completion scripts in real shells, installed the README's way:
//! zsh from `fpath` (compinit, a fresh shell driven through `zpty`), fish
//! from `conf.d`, bash sourced. Each completes `agentbox`, a tool under its
//! link name, host ids and man pages. zsh and fish are Debian packages
//! (`.ci/run` installs them); without them these tests fail, not skip.

use crate::common;

use common::Sandbox;
use std::path::Path;
use std::process::Command;

/// `(command line typed, a candidate the shell must offer)`.
const CASES: &[(&str, &str)] = &[
    ("agentbox pl", "plan"),
    ("agentbox ", "search"),
    ("plan ", "create"),
    ("plan create --st", "--step"),
    (".agent/tools/plan cr", "create"),
    ("sync hosts install ", "claude-code"),
    ("sync hosts remove ge", "gemini"),
    ("agentbox sync hosts install co", "codex"),
    ("agentbox man plan-c", "plan-create"),
    ("agentbox man agentbox-", "agentbox-doctor"),
    ("memory_mcp --", "--home"),
    ("agentbox completions ", "fish"),
    ("plan list --format ", "json"),
];

fn script(sb: &Sandbox, shell: &str, to: &Path) {
    let out = sb.agentbox(&["completions", shell]).output().unwrap();
    assert!(out.status.success());
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::write(to, out.stdout).unwrap();
}

fn shell_present(shell: &str) {
    let found = Command::new(shell).arg("-c").arg("exit 0").status();
    assert!(
        found.is_ok_and(|s| s.success()),
        "{shell} is not installed: apt-get install {shell} (.ci/run does)"
    );
}

/// Completes `line` in a fresh interactive zsh that has only compinit and
/// the folder in `fpath`, and prints every candidate offered (compadd is
/// wrapped to print them, and the first completion ends the shell).
const ZSH_CAPTURE: &str = r#"
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT=''; fpath=($1 \$fpath); autoload -U compinit; compinit -u -d $1/.zcompdump"
zpty -w z 'compadd () { typeset -a __hits; builtin compadd -A __hits "$@"; local ret=$?; for h in $__hits; do print -r -- "HI""T:$h"; done; return ret }'
zpty -w z 'finish () { compstate[insert]=""; compstate[list]=""; print -r -- "DO""NE:"; exit }'
zpty -w z 'comppostfuncs=( finish ); bindkey "^I" complete-word'
zpty -w z "$2"$'\t'
while zpty -r z line; do
  [[ $line == *DONE:* ]] && break
  [[ $line == *HIT:* ]] && print -r -- "${${line#*HIT:}%$'\r'}"
done
zpty -d z
"#;

#[test]
#[ignore = "needs zsh (apt install zsh); run with --include-ignored"]
fn zsh_completes_every_name_from_fpath() {
    shell_present("zsh");
    let sb = Sandbox::new();
    let dir = sb.path().join("zfunc");
    script(&sb, "zsh", &dir.join("_agentbox"));
    let capture = sb.path().join("capture.zsh");
    std::fs::write(&capture, ZSH_CAPTURE).unwrap();
    for (line, expected) in CASES {
        let out = Command::new("timeout")
            .args(["30", "zsh", "-f"])
            .arg(&capture)
            .arg(&dir)
            .arg(line)
            .current_dir(sb.path())
            .env("HOME", sb.path())
            .output()
            .unwrap();
        let offered = String::from_utf8_lossy(&out.stdout);
        assert!(
            offered.lines().any(|l| l == *expected),
            "zsh offers no {expected:?} for {line:?}: {offered:?}"
        );
    }
}

#[test]
#[ignore = "needs fish (apt install fish); run with --include-ignored"]
fn fish_completes_every_name_from_conf_d() {
    shell_present("fish");
    let sb = Sandbox::new();
    let config = sb.path().join("config");
    script(&sb, "fish", &config.join("fish/conf.d/agentbox.fish"));
    for (line, expected) in CASES {
        let out = Command::new("fish")
            .arg("-c")
            .arg(format!("complete -C '{line}'"))
            .current_dir(sb.path())
            .env("HOME", sb.path())
            .env("XDG_CONFIG_HOME", &config)
            .env("XDG_DATA_HOME", sb.path().join("data"))
            .output()
            .unwrap();
        let offered = String::from_utf8_lossy(&out.stdout);
        assert!(
            offered
                .lines()
                .any(|l| l.split('\t').next() == Some(*expected)),
            "fish offers no {expected:?} for {line:?}: {offered:?}"
        );
    }
}

#[test]
fn bash_completes_every_name_when_sourced() {
    let sb = Sandbox::new();
    let file = sb.path().join("agentbox.bash");
    script(&sb, "bash", &file);
    for (line, expected) in CASES {
        // What bash's completion does on TAB: the words, the cursor's word,
        // and the function registered for the command.
        const PROGRAM: &str = r#"source "$1"
COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
spec=$(complete -p "${COMP_WORDS[0]}")
func=${spec#*-F }; func=${func%% *}
"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}""#;
        let out = Command::new("bash")
            .args(["-c", PROGRAM, "bash"])
            .arg(&file)
            .arg(line)
            .current_dir(sb.path())
            .output()
            .unwrap();
        let offered = String::from_utf8_lossy(&out.stdout);
        assert!(
            offered.lines().any(|l| l.trim() == *expected),
            "bash offers no {expected:?} for {line:?}: {offered:?} {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
