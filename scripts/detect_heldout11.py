"""The eleventh held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout11`; not run on its own.

A twelfth template family, written and committed before any detector
change of the ninth round (the round that closes heldout10's misses),
from real-world formats and not from the detectors' code. The session
that wrote it knew heldout10's per-class figures as its brief named them
(private_key, email precision, credit_card, api_key, ipv4 and ipv6
precision, iban recall) and the detectors' source; it grepped the ten
earlier families only to keep clear of their surroundings; only its
per-class table is looked at until the round's final measurement.

Surroundings that no other family writes, many from LLM traces and agent
tool calls: OpenAI/Anthropic response envelopes (`chatcmpl-`, `msg_01`,
`asst_`, `toolu_` ids as look-alikes), tool-call `arguments` strings
holding escaped JSON, OTLP spans (`timeUnixNano`, `traceId`), litellm and
LangChain configs, Emacs `setq`, Vim `let g:`; logs as `curl -v`
(`Trying`, `Connected to`), `nslookup`, `host ... has address`, `whois`
`inetnum`, SPF `ip4:`/`ip6:`, `ipconfig`, nftables `ip6 saddr`,
Kubernetes `podIPs`, `scp`/`ssh -J` targets, Windows `ipconfig`, GELF,
RFC 5424 structured data, Caddy JSON, k8s audit `sourceIPs`; mail as
SMTP transcripts (`MAIL FROM:<...>`), `In-Reply-To`/`Message-ID`,
RPM `%changelog`, `gpg --list-keys` uid lines, `ssh-keygen -C`,
`git log --format`, `package.json` authors; cards as Track 1
(`%B...^`), EMV TLV hex (`5A 08`), Braintree form fields
(`credit_card[number]`), GraphQL mutations, Go `%+v`, Rust `Debug`,
Kotlin `toString`, SQL `INSERT`, and prose in Turkish, Hebrew, Chinese,
Korean; card brands Mir, Verve, Dankort, Hipercard, Discover 644-649,
UnionPay 19-digit, Diners 14-digit, Iranian Shetab BINs; IBANs of
countries no family named as such a set (NO, DK, FI, IS, LU, LI, MC, SM,
HR, SI, SK, HU, RO, BG, GR, CY, TR, IL, SA, AE, QA, KW, BH, EG, BR, UA,
ME, RS, BA, XK, KZ, PK, SC, MU) in camt.053 `<DbtrAcct>`, Open Banking
`UK.OBIE.IBAN`, payment-link query strings, Hungarian, Turkish,
Arabic and Hebrew prose; SSNs in FHIR `us-ssn`, ACORD XML, payroll
exports, T-SQL; phones of countries no family wrote (Monaco, Andorra,
Liechtenstein, Gibraltar, Tajikistan, Bhutan, Mauritius, Seychelles,
Botswana, Namibia, Belize, Honduras, Jamaica, Trinidad, Bahamas,
Barbados, Mauritania, Mali, Burkina Faso, Niger, Togo, Benin, Liberia,
Sierra Leone, Gambia, Nauru, Palau, Kiribati, Tuvalu, Micronesia,
Marshall Islands, Falklands) and US numbers as WHOIS `+1.2015550123`,
percent-encoded webhook `From=%2B1...`, `tel:` with `;ext=`; provider
tokens no family wrote (OpenRouter, Tavily, Pinecone, ElevenLabs,
AssemblyAI, Deepgram, Langfuse, Helicone, Cohere, Mistral, Together,
DeepSeek); PEM keys `ENCRYPTED PRIVATE KEY`, after `EC PARAMETERS`, as
C string concatenation, quoted `> ` in mail, in TOML `'''`, in XML, in
Python triple quotes, in a Rust raw string, in a Helm `|-` block under
deep indentation; JWTs with ES512 and EdDSA signatures in MQTT CONNECT
logs, `--oauth2-bearer`, `gh auth login --with-token`, tool-call
arguments; URL credentials for `imap`, `bolt`, `couchbase`, `memcached`,
`cockroachdb`, `ldap`, in `registry-mirrors`, in `CI` logs, with
sub-delimiters (`!`, `*`, `~`, `$`) in the password; and look-alikes no
family wrote (OTLP nanosecond timestamps that may pass Luhn, Aadhaar-like
12-digit groups, masked PANs `411111******1111`, masked IBANs,
`iban_last4`, wrong-check IBANs, VAT and EORI numbers, ITINs, famous
invalid SSNs, part numbers `P/N`, NHS numbers, netmask-free CIDR notes,
`Message-ID`s, `ssh://git@` URLs, `scp` targets with a hostname,
`image@sha256` digests, Go module `@v` versions, hex dump lines from
`xxd`, `MD5:` colon fingerprints, dotted clock times `10.02.11.118`,
assembly versions, GraphQL base64 cursors, `x-ms-client-principal`,
source-map data URLs, masked URL passwords `***`, `$CI_JOB_TOKEN`
references, `<password>` placeholders, PEM placeholders with `...`,
`-----BEGIN ENCRYPTED MESSAGE` mentions, `cf-ray`, `x-amz-id-2`,
`Cargo.lock` checksums).

It reuses only the value makers of `detect_corpus.py` (group4, luhn
digit) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
11011). It is the project's own, like the others.
"""
import base64
import json

from detect_values import AN, D, HEX, UHEX, UP, _d, _nz, _put, _s, _seq, _ssn, _tok, with_check, family_doc, B64, B64URL, LOW, label_filler


def _iban(r):
    country, bban = r.choice([
        ("NO", lambda: _d(r, 11)),
        ("DK", lambda: _d(r, 14)),
        ("FI", lambda: _d(r, 14)),
        ("IS", lambda: _d(r, 22)),
        ("LU", lambda: _d(r, 3) + _s(r, UP + D, 13)),
        ("LI", lambda: _d(r, 5) + _s(r, UP + D, 12)),
        ("MC", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("SM", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("HR", lambda: _d(r, 17)),
        ("SI", lambda: _d(r, 15)),
        ("SK", lambda: _d(r, 20)),
        ("HU", lambda: _d(r, 24)),
        ("RO", lambda: _s(r, UP, 4) + _s(r, UP + D, 16)),
        ("BG", lambda: _s(r, UP, 4) + _d(r, 6) + _s(r, UP + D, 8)),
        ("GR", lambda: _d(r, 7) + _s(r, UP + D, 16)),
        ("CY", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("TR", lambda: _d(r, 5) + "0" + _s(r, UP + D, 16)),
        ("IL", lambda: _d(r, 19)),
        ("SA", lambda: _d(r, 2) + _s(r, UP + D, 18)),
        ("AE", lambda: _d(r, 19)),
        ("QA", lambda: _s(r, UP, 4) + _s(r, UP + D, 21)),
        ("KW", lambda: _s(r, UP, 4) + _s(r, UP + D, 22)),
        ("BH", lambda: _s(r, UP, 4) + _s(r, UP + D, 14)),
        ("EG", lambda: _d(r, 25)),
        ("BR", lambda: _d(r, 23) + _s(r, UP, 1) + _s(r, UP + D, 1)),
        ("UA", lambda: _d(r, 6) + _s(r, UP + D, 19)),
        ("ME", lambda: _d(r, 18)),
        ("RS", lambda: _d(r, 18)),
        ("BA", lambda: _d(r, 16)),
        ("XK", lambda: _d(r, 16)),
        ("KZ", lambda: _d(r, 3) + _s(r, UP + D, 13)),
        ("PK", lambda: _s(r, UP, 4) + _s(r, UP + D, 16)),
        ("SC", lambda: _s(r, UP, 4) + _d(r, 20) + _s(r, UP, 3)),
        ("MU", lambda: _s(r, UP, 4) + _d(r, 16) + "000" + _s(r, UP, 3)),
    ])
    return with_check(country, bban())


def _card(r, m):
    """A card of a brand or length no family named, with its Luhn digit."""
    kind = r.choice(["mir", "verve", "dankort", "hipercard", "discover64", "unionpay19", "diners14", "shetab",
                     "visa", "mc", "amex", "jcb"])
    prefix, n = {
        "mir": (str(r.randint(2200, 2204)), 16),
        "verve": (r.choice(["506099", "506105", "650002", "507865"]), r.choice([16, 19])),
        "dankort": ("5019", 16),
        "hipercard": (r.choice(["606282", "384100", "384140"]), 16),
        "discover64": (str(r.randint(644, 649)), 16),
        "unionpay19": (r.choice(["6212", "6217", "6228", "6259"]), 19),
        "diners14": (r.choice(["300", "305", "36", "38"]), 14),
        "shetab": (r.choice(["603799", "610433", "589210", "627353"]), 16),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "jcb": (str(r.randint(3528, 3589)), 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _shown(r, c):
    if len(c) == 14:
        return "%s %s %s" % (c[:4], c[4:10], c[10:])
    if len(c) == 15:
        return "%s-%s-%s" % (c[:4], c[4:10], c[10:])
    if len(c) == 19 and r.random() < 0.5:
        return c[:6] + " " + c[6:]
    sep = r.choice([" ", "-", "", ""])
    return sep.join(c[i:i + 4] for i in range(0, len(c), 4))


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([2, 13, 23, 34, 46, 52, 62, 64, 79, 81, 88, 94, 103, 116, 139, 151, 162, 178,
                                      188, 195, 206, 212]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a02:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2604:a880:%s:%s::%s:%s" % (g(), g(), g(), g()),
        lambda: "2a05:d014:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: ("2001:%04x:%04x:%04x:0000:0000:0000:%04x" % (r.randint(0x4000, 0x4fff), r.randint(0, 0xffff),
                                                            r.randint(0, 0xffff), r.randint(1, 0xffff))),
        lambda: "2A01:7E00:%s::%s" % (g().upper(), g().upper()),
        lambda: "2803:%s:%s::%s" % (g(), g(), g()),
        lambda: "240e:%s:%s:%s::%s" % (g(), g(), g(), g()),
    ])()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _jwt(r):
    alg = r.choice(["ES512", "EdDSA", "RS512", "HS384"])
    head = '{"typ":"JWT","alg":"%s","kid":"%s"}' % (alg, _s(r, LOW + D, 10))
    body = '{"iss":"https://id.example.mc","aud":"%s","exp":%d,"scope":"%s","tid":"%s"}' % (
        r.choice(["mqtt-broker", "api://trace-gate", "urn:svc:billing"]), r.randint(1_700_000_000, 1_900_000_000),
        r.choice(["read write", "openid profile", "tools:invoke"]), _s(r, HEX, 12))
    sig = {"ES512": 176, "EdDSA": 86, "RS512": 342, "HS384": 64}[alg]
    return "%s.%s.%s" % (_b64u(head), _b64u(body), _s(r, B64URL, sig))


def _pem_body(r, width=64):
    return [_s(r, B64, width) for _ in range(r.randint(5, 11))] + [_s(r, B64, r.randint(8, width - 4)) + "=="]


# ------------------------------------------------------------------ items

def i_email(r, doc, m):
    e = "%s@%s" % (r.choice(["lale.yilmaz", "noa.levi", "wang.fang", "minji.park", "c.ionescu", "ildiko.nagy",
                             "b.novak", "m.horvat", "s.petrov", "aroha.t", "kalani", "o.brennan", "release-bot",
                             "billing+eu", "Dr.K.Osei", "tomas_1987", "x.y.z", "hr.team", "noreply-2fa"]),
                   r.choice(["ornek.com.tr", "dugma.co.il", "lizi.cn", "yesi.co.kr", "exemplu.ro", "pelda.hu",
                             "primer.si", "primjer.hr", "primer.bg", "tauira.nz", "laana.example", "sample.photography",
                             "corp.example.international", "eu-west-1.mail.example.co.uk", "example-mail.mc",
                             "EXAMPLE.AD", "post.example.li", "example.gi", "cloud.example.mu"]))
    form = r.choice(["smtp_mail_from", "smtp_rcpt_to", "in_reply_to_hdr", "rpm_changelog", "gpg_uid", "ssh_keygen",
                     "git_format_ae", "package_author", "cargo_authors", "openai_user", "tool_args", "otlp_attr",
                     "emacs_setq", "vim_let", "litellm_yaml", "gelf", "rfc5424_sd", "caddy_json", "tsql_insert",
                     "graphql_vars", "kotlin_tostring", "go_struct", "rust_debug", "tr_prose", "he_prose", "zh_prose",
                     "ko_prose", "hu_prose", "ro_prose", "mi_prose", "haw_prose", "mailto_subject"])
    lead, tail = {
        "smtp_mail_from": ("S: 220 mx.example.mc ESMTP\nC: EHLO client\nC: MAIL FROM:<", "> SIZE=4312\nS: 250 2.1.0 Ok\n"),
        "smtp_rcpt_to": ("C: RCPT TO:<", ">\nS: 250 2.1.5 Ok\n"),
        "in_reply_to_hdr": ("In-Reply-To: <CAF3x9q@mail.example.mc>\nCc: Lale Yilmaz <", ">\n"),
        "rpm_changelog": ("%changelog\n* Sun Dec 06 2026 Noa Levi <", "> - 2.4.1-3\n- rebuild for openssl\n"),
        "gpg_uid": ("pub   ed25519 2026-12-06 [SC]\nuid           [ultimate] Wang Fang <", ">\n"),
        "ssh_keygen": ("$ ssh-keygen -t ed25519 -C \"", "\" -f ~/.ssh/id_ops\n"),
        "git_format_ae": ("$ git log -1 --format='%an|%ae'\nMinji Park|", "\n"),
        "package_author": ("  \"author\": \"C. Ionescu <", "> (https://example.ro)\",\n"),
        "cargo_authors": ("[package]\nname = \"trace-shim\"\nauthors = [\"Ildiko Nagy <", ">\"]\n"),
        "openai_user": ("{\"model\":\"gpt-4.1\",\"user\":\"", "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}\n"),
        "tool_args": ("{\"type\":\"function\",\"function\":{\"name\":\"send_invoice\",\"arguments\":\"{\\\"to\\\":\\\"", "\\\",\\\"amount\\\":120}\"}}\n"),
        "otlp_attr": ("{\"key\":\"enduser.id\",\"value\":{\"stringValue\":\"", "\"}},\n"),
        "emacs_setq": ("(setq user-mail-address \"", "\")\n"),
        "vim_let": ("let g:notify_address = '", "'\n"),
        "litellm_yaml": ("general_settings:\n  alerting: [\"email\"]\n  alert_to_email: ", "\n"),
        "gelf": ("{\"version\":\"1.1\",\"host\":\"api-3\",\"short_message\":\"login ok\",\"_user_email\":\"", "\"}\n"),
        "rfc5424_sd": ("<134>1 2026-12-06T10:02:11.118Z api-3 auth 4412 LOGIN [acct@32473 mail=\"", "\" result=\"ok\"] signed in\n"),
        "caddy_json": ("{\"level\":\"info\",\"logger\":\"http.log.access\",\"user_id\":\"", "\",\"status\":200}\n"),
        "tsql_insert": ("INSERT INTO dbo.Contacts (FullName, Email) VALUES (N'B. Novak', N'", "');\n"),
        "graphql_vars": ("{\"query\":\"mutation Invite($email: String!) { invite(email: $email) { id } }\",\"variables\":{\"email\":\"", "\"}}\n"),
        "kotlin_tostring": ("D/Auth: Account(id=4412, email=", ", verified=true)\n"),
        "go_struct": ("user: {ID:4412 Name:M. Horvat Email:", " Admin:false}\n"),
        "rust_debug": ("Customer { id: 4412, email: \"", "\", tier: Gold }\n"),
        "tr_prose": ("Sorularınız için ", " adresine e-posta gönderin.\n"),
        "he_prose": ("לשאלות ניתן לכתוב ל-", " בכל עת.\n"),
        "zh_prose": ("如有问题，请发邮件至", "。\n"),
        "ko_prose": ("문의 사항은 ", " 으로 보내 주세요.\n"),
        "hu_prose": ("Kérdés esetén írjon a(z) ", " címre.\n"),
        "ro_prose": ("Pentru întrebări scrieți la ", ".\n"),
        "mi_prose": ("Tukuna he īmēra ki ", ".\n"),
        "haw_prose": ("E leka uila mai iā ", ".\n"),
        "mailto_subject": ("<a href=\"mailto:", "?subject=Invoice%202026-12&cc=ar%40example.mc\">Write to us</a>\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    a, x, s = "%s%s" % (_nz(r), _d(r, 2)), "%s%s" % (_nz(r), _d(r, 2)), _d(r, 4)
    form = r.choice(["mc", "ad", "li", "gi", "tj", "bt", "mu", "sc", "bw", "na", "bz", "hn", "jm", "tt", "bs", "bb",
                     "mr", "ml", "bf", "ne", "tg", "bj", "lr", "sl", "gm", "nr", "pw", "ki", "tv", "fm", "mh", "fk",
                     "us_whois", "us_webhook_pct", "us_tel_ext", "us_tool_args", "us_otlp", "us_go_struct",
                     "us_kotlin", "us_gelf", "us_double_zero"])
    lead, p, tail = {
        "mc": ("Tél. portable : ", "+377 6 %s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "ad": ("Mòbil: ", "+376 3%s %s" % (_d(r, 2), _d(r, 3)), "\n"),
        "li": ("Telefon: ", "+423 7%s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "gi": ("Mobile: ", "+350 5%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "tj": ("Телефон: ", "+992 9%s %s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 2), _d(r, 2)), "\n"),
        "bt": ("Mobile No.: ", "+975 17 %s %s" % (_d(r, 3), _d(r, 3)), "\n"),
        "mu": ("Portable: ", "+230 5%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "sc": ("Tel: ", "+248 2 %s %s" % (_d(r, 3), _d(r, 3)), "\n"),
        "bw": ("Mogala: ", "+267 7%s %s" % (_d(r, 3), _d(r, 3)), "\n"),
        "na": ("Cell: ", "+264 81 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "bz": ("Cell: ", "+501 6%s-%s" % (_d(r, 2), _d(r, 4)), "\n"),
        "hn": ("Celular: ", "+504 9%s-%s" % (_d(r, 3), _d(r, 4)), "\n"),
        "jm": ("Cell: ", "+1 (876) %s-%s" % (x, s), "\n"),
        "tt": ("Mobile: ", "+1-868-%s-%s" % (x, s), "\n"),
        "bs": ("Tel: ", "+1 242 %s %s" % (x, s), "\n"),
        "bb": ("Cell: ", "1 (246) %s-%s" % (x, s), "\n"),
        "mr": ("Tél : ", "+222 4%s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 4)), "\n"),
        "ml": ("Tél : ", "+223 7%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "bf": ("Tél. : ", "+226 7%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "ne": ("Tél : ", "+227 9%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "tg": ("Tél : ", "+228 9%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "bj": ("Tél : ", "+229 01 9%s %s %s %s" % (_d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2)), "\n"),
        "lr": ("Cell: ", "+231 77 %s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "sl": ("Mobile: ", "+232 76 %s%s" % (_d(r, 3), _d(r, 3)), "\n"),
        "gm": ("Mobile: ", "+220 7%s %s" % (_d(r, 2), _d(r, 4)), "\n"),
        "nr": ("Mobile: ", "+674 55%s %s" % (_d(r, 1), _d(r, 4)), "\n"),
        "pw": ("Cell: ", "+680 77%s %s" % (_d(r, 1), _d(r, 4)), "\n"),
        "ki": ("Mobile: ", "+686 7%s %s" % (_d(r, 3), _d(r, 4)), "\n"),
        "tv": ("Mobile: ", "+688 90 %s" % _d(r, 4), "\n"),
        "fm": ("Cell: ", "+691 92%s %s" % (_d(r, 1), _d(r, 4)), "\n"),
        "mh": ("Cell: ", "+692 45%s-%s" % (_d(r, 1), _d(r, 4)), "\n"),
        "fk": ("Mobile: ", "+500 5%s" % _d(r, 4), "\n"),
        "us_whois": ("Registrant Name: REDACTED\nRegistrant Phone: ", "+1.%s%s%s" % (a, x, s), "\nRegistrant Phone Ext:\n"),
        "us_webhook_pct": ("POST /sms/inbound\nBody: ToCountry=US&SmsStatus=received&From=", "%%2B1%s%s%s" % (a, x, s), "&Body=STOP\n"),
        "us_tel_ext": ("<a href=\"", "tel:+1-%s-%s-%s;ext=214" % (a, x, s), "\">call the desk</a>\n"),
        "us_tool_args": ("{\"name\":\"place_call\",\"arguments\":\"{\\\"number\\\":\\\"", "+1%s%s%s" % (a, x, s), "\\\"}\"}\n"),
        "us_otlp": ("{\"key\":\"messaging.destination\",\"value\":{\"stringValue\":\"", "+1 %s %s %s" % (a, x, s), "\"}}\n"),
        "us_go_struct": ("contact: {Name:Front Desk Phone:", "(%s) %s-%s" % (a, x, s), " Ext:}\n"),
        "us_kotlin": ("D/Dialer: Contact(name=Front Desk, phone=", "%s.%s.%s" % (a, x, s), ")\n"),
        "us_gelf": ("{\"short_message\":\"sms sent\",\"_to\":\"", "+1 (%s) %s-%s" % (a, x, s), "\"}\n"),
        "us_double_zero": ("Tel. (aus Europa): ", "001 %s %s %s" % (a, x, s), "\n"),
    }[form]
    _put(doc, lead, p, "phone", form, tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    spaced = "%s %s %s" % (a, g, s)
    form = r.choice(["fhir_identifier", "acord_xml", "payroll_export", "tsql_update", "graphql_vars", "tool_args",
                     "go_struct", "rust_debug", "kotlin_tostring", "gelf", "rfc5424_sd", "otlp_attr", "ldif_like",
                     "ko_prose", "zh_prose", "he_prose", "tr_prose", "spaced_form"])
    lead, v, tail = {
        "fhir_identifier": ("\"identifier\":[{\"system\":\"http://hl7.org/fhir/sid/us-ssn\",\"value\":\"", dashed, "\"}],\n"),
        "acord_xml": ("<Party><GovtID>", dashed, "</GovtID><GovtIDTC tc=\"1\">SSN</GovtIDTC></Party>\n"),
        "payroll_export": ("EMP_NO|LAST|FIRST|SSN|RATE\n00412|HORVAT|MARKO|", dashed, "|31.50\n"),
        "tsql_update": ("UPDATE dbo.Employees SET SSN = '", dashed, "' WHERE EmployeeID = 4412;\n"),
        "graphql_vars": ("{\"variables\":{\"input\":{\"taxId\":\"", dashed, "\",\"taxIdType\":\"SSN\"}}}\n"),
        "tool_args": ("{\"name\":\"verify_identity\",\"arguments\":\"{\\\"ssn\\\":\\\"", dashed, "\\\"}\"}\n"),
        "go_struct": ("applicant: {Name:M. Horvat SSN:", dashed, " DOB:1980-01-01}\n"),
        "rust_debug": ("Applicant { name: \"M. Horvat\", ssn: \"", dashed, "\" }\n"),
        "kotlin_tostring": ("D/Kyc: Applicant(name=M. Horvat, ssn=", dashed, ")\n"),
        "gelf": ("{\"short_message\":\"kyc check\",\"_ssn\":\"", dashed, "\"}\n"),
        "rfc5424_sd": ("<134>1 2026-12-06T10:02:11Z hr-1 payroll - - [emp@32473 ssn=\"", dashed, "\"] updated\n"),
        "otlp_attr": ("{\"key\":\"applicant.ssn\",\"value\":{\"stringValue\":\"", dashed, "\"}},\n"),
        "ldif_like": ("dn: uid=mhorvat,ou=people,dc=example,dc=mc\nemployeeType: contractor\nx-ssn: ", dashed, "\n"),
        "ko_prose": ("미국 사회보장번호(SSN): ", dashed, "\n"),
        "zh_prose": ("美国社会安全号码：", dashed, "\n"),
        "he_prose": ("מספר ביטוח לאומי אמריקאי (SSN): ", dashed, "\n"),
        "tr_prose": ("ABD Sosyal Güvenlik Numarası: ", dashed, "\n"),
        "spaced_form": ("Social Security No.  ", spaced, "\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    shown = _shown(r, c)
    form = r.choice(["track1", "emv_tlv", "braintree_form", "graphql_mutation", "go_struct", "rust_debug",
                     "kotlin_tostring", "sql_insert", "tool_args", "gelf", "otlp_attr", "tr_prose", "he_prose",
                     "zh_prose", "ko_prose", "hu_prose", "ro_prose", "fa_prose", "pipe_export", "adyen_json"])
    if form == "emv_tlv":
        digits = c if len(c) % 2 == 0 else c + "F"
        hexbytes = " ".join(digits[i:i + 2] for i in range(0, len(digits), 2))
        lead, v, tail = "Tag 5A (PAN)  len=%02d  " % (len(digits) // 2), hexbytes, "\nTag 5F24 (Expiry) 29 11 30\n"
    else:
        lead, v, tail = {
            "track1": ("T1: %B", c, "^HORVAT/MARKO^2911101000000000000000?\n"),
            "braintree_form": ("payment_method_nonce=&credit_card%5Bnumber%5D=", c, "&credit_card%5Bexpiration_date%5D=11%2F29\n"),
            "graphql_mutation": ("{\"query\":\"mutation { addCard(number: \\\"", shown, "\\\", exp: \\\"11/29\\\") { id } }\"}\n"),
            "go_struct": ("payment: {Number:", c, " Exp:11/29 Holder:M. Horvat}\n"),
            "rust_debug": ("CardDetails { number: \"", shown, "\", exp_month: 11, exp_year: 2029 }\n"),
            "kotlin_tostring": ("D/Pay: Card(pan=", c, ", expiry=11/29)\n"),
            "sql_insert": ("INSERT INTO payments (order_id, pan, exp) VALUES (88123, '", c, "', '11/29');\n"),
            "tool_args": ("{\"name\":\"charge_card\",\"arguments\":\"{\\\"card_number\\\":\\\"", shown, "\\\",\\\"cvc\\\":\\\"123\\\"}\"}\n"),
            "gelf": ("{\"short_message\":\"charge failed\",\"_pan\":\"", c, "\"}\n"),
            "otlp_attr": ("{\"key\":\"payment.card.number\",\"value\":{\"stringValue\":\"", shown, "\"}},\n"),
            "tr_prose": ("Kart numarası: ", shown, "\n"),
            "he_prose": ("מספר כרטיס האשראי: ", shown, "\n"),
            "zh_prose": ("银行卡号：", shown, "\n"),
            "ko_prose": ("카드번호: ", shown, "\n"),
            "hu_prose": ("Kártyaszám: ", shown, "\n"),
            "ro_prose": ("Numărul cardului: ", shown, "\n"),
            "fa_prose": ("شماره کارت بانکی من ", shown, " است.\n"),
            "pipe_export": ("ORDER|PAN|EXP\n88123|", c, "|1129\n"),
            "adyen_json": ("{\"paymentMethod\":{\"type\":\"scheme\",\"number\":\"", c, "\",\"expiryMonth\":\"11\"}}\n"),
        }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = m.group4(i)
    form = r.choice(["camt053", "obie_json", "pay_link", "tool_args", "gelf", "go_struct", "kotlin_tostring",
                     "sql_insert", "graphql_vars", "hu_prose", "tr_prose", "ar_prose", "he_prose", "ro_prose",
                     "hr_prose", "sl_prose", "no_prose", "is_prose", "el_prose", "pipe_export", "lowercase_spaced"])
    lead, v, tail = {
        "camt053": ("<Ntry>\n  <NtryDtls><TxDtls><RltdPties>\n    <DbtrAcct><Id><IBAN>", i, "</IBAN></Id></DbtrAcct>\n  </RltdPties></TxDtls></NtryDtls>\n</Ntry>\n"),
        "obie_json": ("{\"DebtorAccount\":{\"SchemeName\":\"UK.OBIE.IBAN\",\"Identification\":\"", i, "\",\"Name\":\"M. Horvat\"}}\n"),
        "pay_link": ("https://pay.example.mc/transfer?name=M.%20Horvat&iban=", i, "&amount=120.00&ref=INV-88123\n"),
        "tool_args": ("{\"name\":\"sepa_transfer\",\"arguments\":\"{\\\"iban\\\":\\\"", i, "\\\",\\\"amount\\\":\\\"120.00\\\"}\"}\n"),
        "gelf": ("{\"short_message\":\"payout queued\",\"_iban\":\"", i, "\"}\n"),
        "go_struct": ("payout: {Name:M. Horvat IBAN:", i, " Amount:120}\n"),
        "kotlin_tostring": ("D/Payout: Beneficiary(name=M. Horvat, iban=", i, ")\n"),
        "sql_insert": ("INSERT INTO beneficiaries (name, iban) VALUES ('M. Horvat', '", i, "');\n"),
        "graphql_vars": ("{\"variables\":{\"account\":{\"iban\":\"", spaced, "\"}}}\n"),
        "hu_prose": ("Számlaszám (IBAN): ", spaced, "\n"),
        "tr_prose": ("Lütfen ödemeyi ", spaced, " numaralı hesaba yapınız.\n"),
        "ar_prose": ("رقم الآيبان: ", i, "\n"),
        "he_prose": ("מספר IBAN: ", spaced, "\n"),
        "ro_prose": ("Plătiți în contul ", spaced, ", vă rog.\n"),
        "hr_prose": ("Uplatite na račun ", spaced, ".\n"),
        "sl_prose": ("Nakažite na račun ", spaced, ".\n"),
        "no_prose": ("Kontonummer (IBAN): ", spaced, "\n"),
        "is_prose": ("Vinsamlegast greiðið inn á ", i, ".\n"),
        "el_prose": ("Αριθμός IBAN: ", spaced, "\n"),
        "pipe_export": ("NAME|IBAN|AMOUNT\nM. HORVAT|", i, "|120.00\n"),
        "lowercase_spaced": ("iban (as typed by the customer): ", spaced.lower(), "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    form = r.choice(["curl_trying", "curl_connected", "nslookup", "host_has", "whois_inetnum", "spf_ip4", "ipconfig",
                     "k8s_podips", "k8s_audit", "scp_target", "ssh_jump", "gelf", "rfc5424_sd", "caddy_json",
                     "otlp_attr", "tool_args", "go_struct", "kotlin_tostring", "tr_prose", "he_prose", "zh_prose",
                     "ko_prose", "hu_prose", "ro_prose", "pipe_export", "mqtt_connect"])
    parts = {
        "curl_trying": ["*   Trying ", (ip, "ipv4"), ":443...\n* Connected to api.example.mc port 443\n"],
        "curl_connected": ["* Connected to api.example.mc (", (ip, "ipv4"), ") port 443 (#0)\n"],
        "nslookup": ["Server:\t\t127.0.0.53\nAddress:\t127.0.0.53#53\n\nNon-authoritative answer:\nName:\tapi.example.mc\nAddress: ", (ip, "ipv4"), "\n"],
        "host_has": ["api.example.mc has address ", (ip, "ipv4"), "\n"],
        "whois_inetnum": ["inetnum:        ", (ip, "ipv4"), " - ", (ip2, "ipv4"), "\nnetname:        EXAMPLE-NET\n"],
        "spf_ip4": ["example.mc.  300  IN  TXT  \"v=spf1 ip4:", (ip, "ipv4"), " include:_spf.example.net ~all\"\n"],
        "ipconfig": ["Ethernet adapter Ethernet0:\n   IPv4 Address. . . . . . . . . . . : ", (ip, "ipv4"), "(Preferred)\n   Subnet Mask . . . . . . . . . . . : 255.255.255.0\n"],
        "k8s_podips": ["  hostIP: ", (ip, "ipv4"), "\n  phase: Running\n"],
        "k8s_audit": ["{\"kind\":\"Event\",\"verb\":\"delete\",\"user\":{\"username\":\"system:admin\"},\"sourceIPs\":[\"", (ip, "ipv4"), "\"]}\n"],
        "scp_target": ["$ scp backup.tar.gz deploy@", (ip, "ipv4"), ":/srv/backups/\n"],
        "ssh_jump": ["$ ssh -J bastion@", (ip, "ipv4"), " app@10.0.3.7\n"],
        "gelf": ["{\"version\":\"1.1\",\"short_message\":\"login\",\"_client_addr\":\"", (ip, "ipv4"), "\"}\n"],
        "rfc5424_sd": ["<134>1 2026-12-06T10:02:11Z edge-2 auth - - [origin ip=\"", (ip, "ipv4"), "\"] accepted\n"],
        "caddy_json": ["{\"level\":\"info\",\"msg\":\"handled request\",\"request\":{\"remote_ip\":\"", (ip, "ipv4"), "\",\"remote_port\":\"52144\"}}\n"],
        "otlp_attr": ["{\"key\":\"client.address\",\"value\":{\"stringValue\":\"", (ip, "ipv4"), "\"}},\n"],
        "tool_args": ["{\"name\":\"block_ip\",\"arguments\":\"{\\\"ip\\\":\\\"", (ip, "ipv4"), "\\\"}\"}\n"],
        "go_struct": ["conn: {Remote:", (ip, "ipv4"), " Port:52144 TLS:true}\n"],
        "kotlin_tostring": ["D/Net: Peer(host=", (ip, "ipv4"), ", port=443)\n"],
        "tr_prose": ["İstemcinin IP adresi ", (ip, "ipv4"), " idi.\n"],
        "he_prose": ["כתובת ה-IP של הלקוח: ", (ip, "ipv4"), "\n"],
        "zh_prose": ["客户端 IP 地址为 ", (ip, "ipv4"), "。\n"],
        "ko_prose": ["클라이언트 IP 주소: ", (ip, "ipv4"), "\n"],
        "hu_prose": ["Az ügyfél IP-címe: ", (ip, "ipv4"), "\n"],
        "ro_prose": ["Adresa IP a clientului a fost ", (ip, "ipv4"), ".\n"],
        "pipe_export": ["TS|CLIENT|STATUS\n2026-12-06T10:02:11Z|", (ip, "ipv4"), "|401\n"],
        "mqtt_connect": ["1796551331: New client connected from ", (ip, "ipv4"), ":52144 as sensor-7 (p2, c1, k60).\n"],
    }[form]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["curl_trying6", "nslookup6", "host_has6", "spf_ip6", "ipconfig6", "nft_saddr", "k8s_podips6",
                     "gelf6", "caddy6", "otlp6", "tool_args6", "url_bracket", "whois_inet6num", "he_prose",
                     "zh_prose", "ko_prose", "tr_prose", "pipe_export6", "mqtt6"])
    parts = {
        "curl_trying6": ["*   Trying [", (ip, "ipv6"), "]:443...\n"],
        "nslookup6": ["Name:\tapi.example.mc\nAddress: ", (ip, "ipv6"), "\n"],
        "host_has6": ["api.example.mc has IPv6 address ", (ip, "ipv6"), "\n"],
        "spf_ip6": ["\"v=spf1 ip6:", (ip, "ipv6"), " -all\"\n"],
        "ipconfig6": ["   IPv6 Address. . . . . . . . . . . : ", (ip, "ipv6"), "(Preferred)\n"],
        "nft_saddr": ["nft add rule inet filter input ip6 saddr ", (ip, "ipv6"), " drop\n"],
        "k8s_podips6": ["  podIPs:\n  - ip: ", (ip, "ipv6"), "\n"],
        "gelf6": ["{\"short_message\":\"login\",\"_client_addr\":\"", (ip, "ipv6"), "\"}\n"],
        "caddy6": ["{\"request\":{\"remote_ip\":\"", (ip, "ipv6"), "\",\"proto\":\"HTTP/2.0\"}}\n"],
        "otlp6": ["{\"key\":\"network.peer.address\",\"value\":{\"stringValue\":\"", (ip, "ipv6"), "\"}},\n"],
        "tool_args6": ["{\"name\":\"geo_lookup\",\"arguments\":\"{\\\"ip\\\":\\\"", (ip, "ipv6"), "\\\"}\"}\n"],
        "url_bracket": ["GET http://[", (ip, "ipv6"), "]:8080/healthz -> 200\n"],
        "whois_inet6num": ["inet6num:       ", (ip, "ipv6"), "/48\nnetname:        EXAMPLE-V6\n"],
        "he_prose": ["כתובת IPv6 של הלקוח: ", (ip, "ipv6"), "\n"],
        "zh_prose": ["客户端 IPv6 地址：", (ip, "ipv6"), "\n"],
        "ko_prose": ["클라이언트 IPv6 주소: ", (ip, "ipv6"), "\n"],
        "tr_prose": ["İstemcinin IPv6 adresi ", (ip, "ipv6"), " idi.\n"],
        "pipe_export6": ["TS|CLIENT|STATUS\n2026-12-06T10:02:11Z|", (ip, "ipv6"), "|200\n"],
        "mqtt6": ["1796551331: New client connected from ", (ip, "ipv6"), ":52144 as sensor-8 (p2, c1, k60).\n"],
    }[form]
    _seq(doc, form, parts)


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(20, 36))
    form = r.choice([
        "openrouter", "tavily", "pinecone", "elevenlabs", "assemblyai", "deepgram", "langfuse", "helicone",
        "cohere", "mistral", "together", "deepseek", "litellm_yaml", "langchain_py", "emacs_setq", "vim_let",
        "tool_args_header", "otlp_header_attr", "curl_user_colon", "kotlin_const", "swift_let", "scala_val",
        "php_define", "csharp_const", "vbnet_dim", "objc_nsstring", "ps_env", "dockerfile_env", "makefile",
        "tsql_login", "redis_auth", "mysql_cli", "docker_login", "zip_password", "he_prose", "tr_prose",
        "zh_prose", "ko_prose", "hu_prose", "gelf_secret", "go_struct", "rust_debug"])
    lead, v, tail = {
        "openrouter": ("OPENROUTER_API_KEY=", "sk-or-v1-" + _s(r, HEX, 64), "\n"),
        "tavily": ("export TAVILY_API_KEY=", "tvly-" + _s(r, AN, 32), "\n"),
        "pinecone": ("PINECONE_API_KEY=", "pcsk_" + _s(r, AN, 6) + "_" + _s(r, AN, 63), "\n"),
        "elevenlabs": ("xi-api-key: ", "sk_" + _s(r, HEX, 48), "\n"),
        "assemblyai": ("authorization: ", _s(r, HEX, 32), "\n"),
        "deepgram": ("deepgram = DeepgramClient(\"", _s(r, HEX, 40), "\")\n"),
        "langfuse": ("LANGFUSE_SECRET_KEY=", "sk-lf-%s-%s-%s-%s-%s" % (_s(r, HEX, 8), _s(r, HEX, 4), _s(r, HEX, 4), _s(r, HEX, 4), _s(r, HEX, 12)), "\n"),
        "helicone": ("Helicone-Auth: Bearer ", "sk-helicone-" + _s(r, LOW + D, 7) + "-" + _s(r, LOW + D, 7) + "-" + _s(r, LOW + D, 7) + "-" + _s(r, LOW + D, 7), "\n"),
        "cohere": ("co = cohere.ClientV2(api_key=\"", _s(r, AN, 40), "\")\n"),
        "mistral": ("MISTRAL_API_KEY=", _s(r, AN, 32), "\n"),
        "together": ("TOGETHER_API_KEY=", _s(r, HEX, 64), "\n"),
        "deepseek": ("client = OpenAI(base_url=\"https://api.deepseek.com\", api_key=\"", "sk-" + _s(r, HEX, 32), "\")\n"),
        "litellm_yaml": ("model_list:\n  - model_name: claude\n    litellm_params:\n      model: anthropic/claude-sonnet-4\n      api_key: ", "sk-ant-api03-" + _s(r, B64URL, 93) + "AA", "\n"),
        "langchain_py": ("llm = ChatOpenAI(model=\"gpt-4.1\", openai_api_key=\"", "sk-proj-" + _s(r, B64URL, 120), "\")\n"),
        "emacs_setq": ("(setq gptel-api-key \"", "sk-" + _s(r, B64URL, 48), "\")\n"),
        "vim_let": ("let g:codeium_api_key = '", t, "'\n"),
        "tool_args_header": ("{\"name\":\"http_get\",\"arguments\":\"{\\\"url\\\":\\\"https://api.example.mc/v1\\\",\\\"headers\\\":{\\\"X-Api-Key\\\":\\\"", t, "\\\"}}\"}\n"),
        "otlp_header_attr": ("{\"key\":\"http.request.header.x-api-key\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"", t, "\"}]}}},\n"),
        "curl_user_colon": ("$ curl https://api.example.mc/v1/charges -u ", "sk_live_" + _s(r, AN, 24), ": -d amount=2000\n"),
        "kotlin_const": ("private const val API_SECRET = \"", t, "\"\n"),
        "swift_let": ("static let clientSecret = \"", t, "\"\n"),
        "scala_val": ("val apiToken: String = \"", t, "\"\n"),
        "php_define": ("define('STRIPE_SECRET', '", "sk_live_" + _s(r, AN, 99), "');\n"),
        "csharp_const": ("private const string ApiKey = \"", t, "\";\n"),
        "vbnet_dim": ("Dim apiPassword As String = \"", t, "\"\n"),
        "objc_nsstring": ("static NSString *const kApiSecret = @\"", t, "\";\n"),
        "ps_env": ("$env:SERVICE_TOKEN = \"", t, "\"\n"),
        "dockerfile_env": ("FROM python:3.12-slim\nENV APP_SECRET_KEY=", t, "\n"),
        "makefile": ("DEPLOY_TOKEN ?= ", t, "\n"),
        "tsql_login": ("CREATE LOGIN app_rw WITH PASSWORD = N'", t, "', CHECK_POLICY = ON;\n"),
        "redis_auth": ("127.0.0.1:6379> AUTH default ", t, "\nOK\n"),
        "mysql_cli": ("$ mysql -h db.example.mc -u app --password=", t, " shop\n"),
        "docker_login": ("$ echo ", t, " | docker login registry.example.mc -u ci --password-stdin\n"),
        "zip_password": ("$ 7z a -p", t, " -mhe=on backup.7z ./exports\n"),
        "he_prose": ("הסיסמה החדשה היא ", t, " — אל תשתפו אותה.\n"),
        "tr_prose": ("Yeni şifreniz: ", t, "\n"),
        "zh_prose": ("新的密码是：", t, "\n"),
        "ko_prose": ("새 비밀번호: ", t, "\n"),
        "hu_prose": ("Az új jelszó: ", t, "\n"),
        "gelf_secret": ("{\"short_message\":\"config loaded\",\"_client_secret\":\"", t, "\"}\n"),
        "go_struct": ("cfg: {Endpoint:https://api.example.mc APIKey:", t, " Timeout:30s}\n"),
        "rust_debug": ("Config { endpoint: \"https://api.example.mc\", api_key: \"", t, "\", retries: 3 }\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["mqtt_password", "oauth2_bearer", "gh_with_token", "tool_args", "otlp_header", "gelf",
                     "go_struct", "kotlin_tostring", "rust_debug", "swift", "emacs", "ps_header", "he_prose",
                     "zh_prose", "ko_prose", "tr_prose", "pipe_export", "python_requests_repr"])
    lead, tail = {
        "mqtt_password": ("mosquitto_pub -h broker.example.mc -u device-7 -P ", " -t telemetry/7 -m '{}'\n"),
        "oauth2_bearer": ("$ curl --oauth2-bearer ", " https://api.example.mc/me\n"),
        "gh_with_token": ("$ gh auth login --hostname ghe.example.mc --with-token <<< ", "\n"),
        "tool_args": ("{\"name\":\"call_api\",\"arguments\":\"{\\\"auth\\\":\\\"Bearer ", "\\\"}\"}\n"),
        "otlp_header": ("{\"key\":\"http.request.header.authorization\",\"value\":{\"stringValue\":\"Bearer ", "\"}},\n"),
        "gelf": ("{\"short_message\":\"token refreshed\",\"_access_token\":\"", "\"}\n"),
        "go_struct": ("session: {User:device-7 Token:", " Expiry:2026-12-06 11:02:11}\n"),
        "kotlin_tostring": ("D/Auth: Session(user=device-7, idToken=", ")\n"),
        "rust_debug": ("TokenResponse { access_token: \"", "\", expires_in: 3600 }\n"),
        "swift": ("request.setValue(\"Bearer ", "\", forHTTPHeaderField: \"Authorization\")\n"),
        "emacs": ("(setq restclient-token \"", "\")\n"),
        "ps_header": ("$headers = @{ Authorization = \"Bearer ", "\" }\n"),
        "he_prose": ("הטוקן שלי: ", "\n"),
        "zh_prose": ("我的访问令牌是 ", "\n"),
        "ko_prose": ("제 토큰입니다: ", "\n"),
        "tr_prose": ("Erişim belirteci: ", "\n"),
        "pipe_export": ("USER|TOKEN\ndevice-7|", "\n"),
        "python_requests_repr": ("{'Authorization': 'Bearer ", "', 'Accept': 'application/json'}\n"),
    }[form]
    _put(doc, lead, _jwt(r), "jwt", form, tail)


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "ENCRYPTED ", "OPENSSH "])
    form = r.choice(["after_ec_params", "c_concat", "mail_quoted", "toml_literal", "xml_element", "py_triple",
                     "rust_raw", "helm_deep", "tool_result", "he_prose", "zh_prose", "ko_prose", "tr_prose",
                     "plain_tabbed"])
    if form == "after_ec_params":
        kind = "EC "
    head, foot = "-----BEGIN %sPRIVATE KEY-----" % kind, "-----END %sPRIVATE KEY-----" % kind
    lines = _pem_body(r)
    k = "\n".join([head] + lines + [foot])
    if form == "after_ec_params":
        lead, v, tail = ("$ openssl ecparam -name secp384r1 -genkey\n-----BEGIN EC PARAMETERS-----\nBgUrgQQAIg==\n"
                         "-----END EC PARAMETERS-----\n"), k, "\n"
    elif form == "c_concat":
        v = "\\n\"\n    \"".join([head] + lines + [foot])
        lead, tail = "static const char *kTestKey =\n    \"", "\\n\";\n"
    elif form == "mail_quoted":
        v = "\n> ".join([head] + lines + [foot])
        lead, tail = "On Sun, Dec 6, 2026 at 10:02 Noa Levi wrote:\n> here is the key for staging:\n> ", "\n\nThanks, got it.\n"
    elif form == "toml_literal":
        lead, v, tail = "[tls]\nkey = '''\n", k, "\n'''\n"
    elif form == "xml_element":
        lead, v, tail = "<Credential>\n  <PrivateKey>", k, "</PrivateKey>\n</Credential>\n"
    elif form == "py_triple":
        lead, v, tail = "SIGNING_KEY = \"\"\"", k, "\"\"\"\n"
    elif form == "rust_raw":
        lead, v, tail = "const TEST_KEY: &str = r#\"", k, "\"#;\n"
    elif form == "helm_deep":
        pad = "\n" + " " * 10
        v = pad.join([head] + lines + [foot])
        lead, tail = "global:\n  ingress:\n    tls:\n      certs:\n        key: |-\n          ", "\n        crt: cert.pem\n"
    elif form == "tool_result":
        v = "\\n".join([head] + lines + [foot])
        lead, tail = "{\"role\":\"tool\",\"tool_call_id\":\"call_7\",\"content\":\"", "\\n\"}\n"
    elif form == "he_prose":
        lead, v, tail = "המפתח הפרטי של השרת:\n", k, "\nאל תשתפו אותו.\n"
    elif form == "zh_prose":
        lead, v, tail = "服务器私钥如下：\n", k, "\n请勿外传。\n"
    elif form == "ko_prose":
        lead, v, tail = "서버 개인 키:\n", k, "\n공유하지 마세요.\n"
    elif form == "tr_prose":
        lead, v, tail = "Sunucunun özel anahtarı:\n", k, "\nKimseyle paylaşmayın.\n"
    else:
        v = "\n\t".join([head] + lines + [foot])
        lead, tail = "key_material:\n\t", "\n"
    _put(doc, lead, v, "private_key", "%s_%s" % (form, kind.strip().lower() or "pkcs8"), tail)


def i_url(r, doc, m):
    pw = _tok(r, r.randint(10, 22)) + r.choice(["", "", "", "!", "*", "~", "$", "%21", "%2A" + _d(r, 2), "%24"])
    form = r.choice(["imap", "bolt", "couchbase", "memcached", "cockroach", "ldap", "registry_mirrors", "ci_log",
                     "tool_args", "otlp_attr", "gelf", "go_struct", "kotlin_tostring", "rust_debug", "litellm_yaml",
                     "he_prose", "zh_prose", "ko_prose", "tr_prose", "hu_prose"])
    lead, tail = {
        "imap": ("fetchmail: polling imaps://archiver:", "@imap.example.mc:993/INBOX\n"),
        "bolt": ("NEO4J_URI=bolt+s://neo:", "@graph.example.mc:7687\n"),
        "couchbase": ("cluster = Cluster(\"couchbases://app:", "@cb.example.mc\")\n"),
        "memcached": ("CACHE_URL=memcached://sasl:", "@cache.example.mc:11211\n"),
        "cockroach": ("DATABASE_URL=cockroachdb://root:", "@crdb.example.mc:26257/defaultdb?sslmode=verify-full\n"),
        "ldap": ("AUTH_LDAP_SERVER_URI=ldap://cn=reader,dc=example,dc=mc:", "@ldap.example.mc:389\n"),
        "registry_mirrors": ("{\n  \"registry-mirrors\": [\"https://mirror:", "@hub-mirror.example.mc\"]\n}\n"),
        "ci_log": ("[2026-12-06T10:02:11Z] Cloning https://ci-runner:", "@git.example.mc/platform/api.git into /builds/api\n"),
        "tool_args": ("{\"name\":\"sql_query\",\"arguments\":\"{\\\"dsn\\\":\\\"postgres://analyst:", "@warehouse.example.mc/dw\\\"}\"}\n"),
        "otlp_attr": ("{\"key\":\"db.connection_string\",\"value\":{\"stringValue\":\"mssql://sa:", "@sql.example.mc:1433/app\"}},\n"),
        "gelf": ("{\"short_message\":\"broker connect\",\"_url\":\"amqp://events:", "@mq.example.mc:5672/\"}\n"),
        "go_struct": ("store: {DSN:mysql://app:", "@db.example.mc:3306/shop Pool:10}\n"),
        "kotlin_tostring": ("D/Sync: Remote(url=https://sync:", "@dav.example.mc/files/)\n"),
        "rust_debug": ("Settings { redis_url: \"redis://default:", "@cache.example.mc:6379/2\", workers: 4 }\n"),
        "litellm_yaml": ("general_settings:\n  database_url: postgresql://llmproxy:", "@pg.example.mc:5432/litellm\n"),
        "he_prose": ("התחברו דרך https://noa:", "@files.example.co.il/ כדי להעלות.\n"),
        "zh_prose": ("请使用 ftp://upload:", "@ftp.example.cn/incoming 上传文件。\n"),
        "ko_prose": ("업로드 주소: sftp://minji:", "@files.example.co.kr/upload\n"),
        "tr_prose": ("Dosyaları https://lale:", "@dosya.example.com.tr/ adresine yükleyin.\n"),
        "hu_prose": ("A tároló címe: https://ildiko:", "@tar.example.hu/webdav\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _luhn_complete(m, body):
    return body + m.luhn_digit(body)


def _bad_iban(r):
    good = with_check("NO", _d(r, 11))
    wrong = "%02d" % ((int(good[2:4]) + r.randint(1, 50)) % 97 + 2)
    return good[:2] + wrong + good[4:]


def i_look(r, doc, m):
    q = r.randint
    kind = r.choice([
        "otlp_time_unix_nano", "aadhaar_like", "masked_pan", "masked_pan_stars", "masked_iban", "iban_last4",
        "wrong_check_iban", "vat_number", "eori", "itin", "invalid_ssn_area", "part_number", "nhs_number",
        "cidr_note", "message_id", "ssh_git_url", "scp_hostname", "image_digest", "go_module_version", "xxd_line",
        "md5_fingerprint", "dotted_clock", "assembly_version", "graphql_cursor", "ms_client_principal",
        "sourcemap_data_url", "masked_url_password", "ci_job_token_ref", "password_placeholder_url",
        "pem_placeholder", "pgp_message_mention", "cf_ray", "amz_id_2", "cargo_checksum", "chatcmpl_id",
        "anthropic_msg_id", "assistant_id", "toolu_id", "trace_id_hex", "span_id_hex", "otlp_trace_json",
        "usage_tokens", "model_version", "decorator_at", "css_at_rule", "sql_server_var", "jvm_version",
        "price_cents", "unix_ts_ms_digits", "hash_short"])
    hexid = lambda n: _s(r, HEX, n)
    lead, v, tail = {
        "otlp_time_unix_nano": ("{\"timeUnixNano\":\"", str(q(1_700_000_000, 1_900_000_000)) + _d(r, 9), "\",\"severityText\":\"INFO\"}\n"),
        "aadhaar_like": ("Aadhaar (masked in UI, raw in export): ", "%s %s %s" % (_nz(r) + _d(r, 3), _d(r, 4), _d(r, 4)), "\n"),
        "masked_pan": ("card: ", r.choice(["411111", "522222", "220012", "650031"]) + "******" + _d(r, 4), " (masked)\n"),
        "masked_pan_stars": ("Paid with ", "•••• •••• •••• %s" % _d(r, 4), "\n"),
        "masked_iban": ("IBAN: ", "NO93 **** **** %s" % _d(r, 3), "\n"),
        "iban_last4": ("{\"sepa_debit\":{\"iban_last4\":\"", _d(r, 4), "\",\"country\":\"NO\"}}\n"),
        "wrong_check_iban": ("Rejected (checksum): ", _bad_iban(r), "\n"),
        "vat_number": ("USt-IdNr.: ", "DE%d" % q(100000000, 999999999), "\n"),
        "eori": ("EORI: ", "GB%d%03d" % (q(100000000, 999999999), q(0, 999)), "\n"),
        "itin": ("ITIN: ", "9%02d-%d-%04d" % (q(0, 99), q(70, 88), q(0, 9999)), "\n"),
        "invalid_ssn_area": ("test fixture ssn (invalid area): ", "%03d-%02d-%04d" % (r.choice([0, 666, q(900, 999)]), q(1, 99), q(1, 9999)), "\n"),
        "part_number": ("P/N ", "%03d-%02d-%04d" % (q(100, 899), q(10, 99), q(1000, 9999)), " Rev C (bracket, steel)\n"),
        "nhs_number": ("NHS No: ", "%03d %03d %04d" % (q(400, 499), q(0, 999), q(0, 9999)), "\n"),
        "cidr_note": ("route: ", "10.%d.0.0/16" % q(0, 255), " via vpc peering\n"),
        "message_id": ("Message-ID: <", "CAF%s.%d@mail.example.mc" % (_s(r, AN, 18), q(1000, 9999)), ">\n"),
        "ssh_git_url": ("git clone ", "ssh://git@git.example.mc:2222/platform/api.git", "\n"),
        "scp_hostname": ("$ scp build.tar ", "deploy@build-%02d.example.mc:/tmp/" % q(1, 40), "\n"),
        "image_digest": ("image: ", "registry.example.mc/api@sha256:" + hexid(64), "\n"),
        "go_module_version": ("go: downloading ", "golang.org/x/net@v0.%d.%d" % (q(10, 40), q(0, 9)), "\n"),
        "xxd_line": ("", "%08x: %s  ................" % (q(0, 4096) * 16, " ".join(_s(r, HEX, 4) for _ in range(8))), "\n"),
        "md5_fingerprint": ("2048 ", "MD5:" + ":".join(_s(r, HEX, 2) for _ in range(16)), " deploy@build (RSA)\n"),
        "dotted_clock": ("[", "%02d.%02d.%02d.%03d" % (q(0, 23), q(0, 59), q(0, 59), q(0, 999)), "] worker started\n"),
        "assembly_version": ("[assembly: AssemblyVersion(\"", "%d.%d.%d.%d" % (q(1, 9), q(0, 20), q(0, 200), q(0, 255)), "\")]\n"),
        "graphql_cursor": ("\"pageInfo\":{\"endCursor\":\"", base64.b64encode(json.dumps({"id": q(1, 99999), "ts": q(1_700_000_000, 1_900_000_000)}).encode()).decode(), "\",\"hasNextPage\":true}\n"),
        "ms_client_principal": ("x-ms-client-principal: ", base64.b64encode(json.dumps({"auth_typ": "aad", "name_typ": "name", "claims": []}).encode()).decode(), "\n"),
        "sourcemap_data_url": ("//# sourceMappingURL=", "data:application/json;base64," + base64.b64encode(json.dumps({"version": 3, "file": "app.js", "sources": ["app.ts"], "mappings": "AAAA," + _s(r, UP, 20)}).encode()).decode(), "\n"),
        "masked_url_password": ("engine: Engine(", "postgresql+psycopg2://app:***@db.example.mc:5432/app", ")\n"),
        "ci_job_token_ref": ("git clone ", "https://gitlab-ci-token:${CI_JOB_TOKEN}@git.example.mc/platform/api.git", "\n"),
        "password_placeholder_url": ("Format: ", "amqp://<user>:<password>@<host>:5672/<vhost>", "\n"),
        "pem_placeholder": ("Paste your key in this form:\n", "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----", "\n"),
        "pgp_message_mention": ("The reply starts with ", "-----BEGIN PGP MESSAGE-----", " and is encrypted to you.\n"),
        "cf_ray": ("cf-ray: ", "%s-%s" % (hexid(16), r.choice(["FRA", "AMS", "CDG", "IAD"])), "\n"),
        "amz_id_2": ("x-amz-id-2: ", _s(r, B64, 76) + "=", "\n"),
        "cargo_checksum": ("checksum = \"", hexid(64), "\"\n"),
        "chatcmpl_id": ("{\"id\":\"", "chatcmpl-" + _s(r, AN, 29), "\",\"object\":\"chat.completion\"}\n"),
        "anthropic_msg_id": ("{\"id\":\"", "msg_01" + _s(r, AN, 22), "\",\"type\":\"message\",\"role\":\"assistant\"}\n"),
        "assistant_id": ("{\"assistant_id\":\"", "asst_" + _s(r, AN, 24), "\"}\n"),
        "toolu_id": ("{\"type\":\"tool_use\",\"id\":\"", "toolu_01" + _s(r, AN, 22), "\",\"name\":\"get_weather\"}\n"),
        "trace_id_hex": ("{\"traceId\":\"", hexid(32), "\",\"name\":\"llm.call\"}\n"),
        "span_id_hex": ("{\"spanId\":\"", hexid(16), "\",\"parentSpanId\":\"\"}\n"),
        "otlp_trace_json": ("\"startTimeUnixNano\":\"", str(q(1_700_000_000, 1_900_000_000)) + _d(r, 9), "\",\n"),
        "usage_tokens": ("\"usage\":{\"input_tokens\":", str(q(10, 90000)), ",\"output_tokens\":512}\n"),
        "model_version": ("\"model\":\"", r.choice(["claude-sonnet-4-20250514", "gpt-4.1-2025-04-14", "gemini-2.5-pro-preview-05-06", "mistral-large-2411"]), "\"\n"),
        "decorator_at": ("", "@app.route(\"/v1/%s\", methods=[\"POST\"])" % r.choice(["charge", "invite", "login"]), "\n"),
        "css_at_rule": ("", "@media (max-width: %dpx) {" % q(320, 1280), " .nav { display: none; } }\n"),
        "sql_server_var": ("DECLARE ", "@RowCount INT = %d" % q(1, 5000), ";\n"),
        "jvm_version": ("java.runtime.version=", "21.0.%d+%d-LTS" % (q(1, 9), q(1, 14)), "\n"),
        "price_cents": ("\"amount\":", str(q(100, 10 ** 9)), ",\"currency\":\"usd\"\n"),
        "unix_ts_ms_digits": ("ts=", str(q(1_700_000_000_000, 1_900_000_000_000)), " level=info msg=ok\n"),
        "hash_short": ("fixed in ", hexid(12), " (see CHANGELOG)\n"),
    }[kind]
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "---\n", "// ----\n", "-- -- --\n", "~~~~\n", "\n====\n", "#\n"]


# Real addresses in this family's own fixed text (the `nslookup`
# resolver, a `redis-cli` prompt, the `ssh -J` target), left unlabeled
# when it was written: a detector that removed them was scored as wrong.
# The `ipconfig` subnet mask stays unlabeled: a mask is no host, and the
# detector leaves it.
FILLER_VALUES = [("127.0.0.53", "ipv4"), ("127.0.0.1", "ipv4"), ("10.0.3.7", "ipv4")]


def heldout11_doc(r, doc, m):
    """One text of the twelfth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
    # A CIDR route's network address is an IPv4 address (the look-alike
    # was mislabeled): its address part is an item, the prefix length not.
    for look in [k for k in doc.looks if k[2] == "cidr_note"]:
        doc.looks.remove(look)
        doc.items.append([look[0], look[1] - len("/16"), "ipv4", "t_cidr_route", True])
    label_filler(doc, FILLER_VALUES)
