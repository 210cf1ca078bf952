#!/usr/bin/env python3
"""Generate the labeled detection-quality corpus (never committed).

usage: detect_corpus.py DOCS OUT.jsonl [SEED] [--split tune|heldout|heldout2|heldout3|heldout4|heldout5|heldout6|heldout7|heldout8|heldout9|heldout10|heldout11|heldout12|heldout13|heldout14|heldout15|heldout16|heldout17|heldout18|heldout19|heldout20|heldout21|heldout22|heldout23]

`--split tune` (the default) is the corpus the detectors are tuned on;
`--split heldout` writes texts from a second template family
(`detect_heldout.py`), kept out of the first round of tuning and a
tuning split since (issue 36); `--split heldout2` writes texts from a
third family (`detect_heldout2.py`), written before the second round and
kept out of its tuning; `--split heldout3` writes texts from a fourth
family (`detect_heldout3.py`), written and committed before the third
round; `--split heldout4` a fifth (`detect_heldout4.py`), written and
committed before heldout3 was read per form; `--split heldout5` a sixth
(`detect_heldout5.py`), written and committed before any change for
heldout4's miss classes; `--split heldout6` a seventh
(`detect_heldout6.py`), written and committed before any change for
heldout5's miss classes; `--split heldout7` an eighth
(`detect_heldout7.py`), written and committed before any change for
heldout6's miss classes, drawn from its own seed (the given seed plus
7007, so no split shares a stream of draws with another); `--split
heldout8` a ninth (`detect_heldout8.py`), written and committed before
any change for heldout7's miss classes, from the seed plus 8008;
`--split heldout9` a tenth (`detect_heldout9.py`), written and committed
before any change for heldout8's miss classes, from the seed plus 9009;
`--split heldout10` an eleventh (`detect_heldout10.py`), written and
committed before any change for heldout9's miss classes, from the seed
plus 10010; `--split heldout11` a twelfth (`detect_heldout11.py`),
written and committed before any change for heldout10's miss classes,
from the seed plus 11011; `--split heldout12` a thirteenth
(`detect_heldout12.py`), written and committed before any change for
heldout11's miss classes, from the seed plus 12012; `--split heldout13`
a fourteenth (`detect_heldout13.py`), written and committed before any
change for heldout12's miss classes, from the seed plus 13013;
`--split heldout14` a fifteenth (`detect_heldout14.py`), written and
committed before any change for heldout13's miss classes, from the seed
plus 14014; `--split heldout15` a sixteenth (`detect_heldout15.py`),
written and committed before any change for heldout14's miss classes,
from the seed plus 15015; `--split heldout16` a seventeenth
(`detect_heldout16.py`), written and committed before any change for
heldout15's miss classes, from the seed plus 16016; `--split heldout17`
an eighteenth (`detect_heldout17.py`), written and committed before any
change for heldout16's miss classes, from the seed plus 17017; `--split
heldout18` a nineteenth (`detect_heldout18.py`), written and committed
before any change for heldout17's miss classes, from the seed plus
18018; `--split heldout19` a twentieth (`detect_heldout19.py`), written
and committed before any change for heldout18's miss classes, from the
seed plus 19019; `--split heldout20` a twenty-first
(`detect_heldout20.py`), written and committed before any change for
heldout19's miss classes, from the seed plus 20020; `--split heldout21`
a twenty-second (`detect_heldout21.py`), written and committed before
any change for heldout20's miss classes, from the seed plus 21021;
`--split heldout22` a twenty-third (`detect_heldout22.py`), written and
committed before any change for heldout21's miss classes, from the seed
plus 22022; `--split heldout23` a twenty-fourth (`detect_heldout23.py`),
written and committed before any change for heldout22's miss classes,
from the seed plus 23023.

Each line is one text a redactor sees (a content field): realistic chat
prose, code, logs, JSON, YAML and config, with planted items of every
class and form among hard look-alikes:

  {"text": "...",
   "items": [[start, end, class, form, claimed], ...],
   "looks": [[start, end, kind], ...]}

Offsets are Python string (code point) offsets. `class` is the built-in
detector that should remove the item; the span is exactly what must go
(the token of a header, the password of a URL, the whole address).
`claimed` is false for forms the detector documents as out of scope
(national phone numbers and spaced or solid SSNs without a context word),
which the scorer reports apart. `looks` are look-alikes that must stay.

Deterministic: a fixed seed (default 20), so runs compare like with like.
"""
import base64
import json
import importlib
import random
import string
import sys

A = string.ascii_letters
AN = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase
HEX = "0123456789abcdef"
B64 = AN + "+/"


def rs(r, alphabet, n):
    return "".join(r.choice(alphabet) for _ in range(n))


def mixed(r, n, extra=""):
    """A random token with upper, lower and digits (as real keys have)."""
    while True:
        t = rs(r, AN + extra, n)
        if any(c.isupper() for c in t) and any(c.islower() for c in t) and any(c.isdigit() for c in t):
            return t


# ------------------------------------------------------------------ checks

def luhn_digit(body):
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(s):
    ds = [int(c) for c in s if c.isdigit()]
    total = 0
    for i, d in enumerate(reversed(ds)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def card_number(r):
    kind = r.choice(["visa", "visa", "mc", "mc2", "amex", "disc"])
    if kind == "visa":
        body = "4" + rs(r, string.digits, 14)
    elif kind == "mc":
        body = str(r.randint(51, 55)) + rs(r, string.digits, 13)
    elif kind == "mc2":
        body = str(r.randint(2221, 2720)) + rs(r, string.digits, 11)
    elif kind == "amex":
        body = r.choice(["34", "37"]) + rs(r, string.digits, 12)
    else:
        body = "6011" + rs(r, string.digits, 11)
    return body + luhn_digit(body), kind


def iban(r):
    country, length = r.choice([("DE", 22), ("GB", 22), ("FR", 27), ("ES", 24), ("NL", 18), ("IT", 27)])
    if country == "GB":
        bban = rs(r, string.ascii_uppercase, 4) + rs(r, string.digits, 14)
    elif country == "NL":
        bban = rs(r, string.ascii_uppercase, 4) + rs(r, string.digits, 10)
    elif country == "IT":
        bban = r.choice(string.ascii_uppercase) + rs(r, string.digits, 22)
    else:
        bban = rs(r, string.digits, length - 4)
    num = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(num) % 97
    return "%s%02d%s" % (country, check, bban)


def group4(s, sep=" "):
    return sep.join(s[i:i + 4] for i in range(0, len(s), 4))


# ------------------------------------------------------------ the planter

class Doc:
    """A text being built, with the spans of what was planted."""

    def __init__(self):
        self.parts = []
        self.n = 0
        self.items = []
        self.looks = []

    def t(self, s):
        self.parts.append(s)
        self.n += len(s)

    def item(self, s, cls, form, claimed=True):
        self.items.append([self.n, self.n + len(s), cls, form, claimed])
        self.t(s)

    def look(self, s, kind):
        self.looks.append([self.n, self.n + len(s), kind])
        self.t(s)

    def text(self):
        return "".join(self.parts)


FIRST = ["ana", "john", "maria", "wei", "priya", "lukas", "sofia", "kenji", "olivia", "mateo", "fatima", "noah"]
LAST = ["smith", "garcia", "müller", "chen", "kumar", "rossi", "tanaka", "silva", "nowak", "dubois"]
DOMAINS = ["example.com", "mail.example.org", "corp.example.net", "example.co.uk", "firma.de", "example.io"]
IDN = ["bücher.de", "münchen.de", "例子.广告", "пример.рф", "exemplo.com.br", "παράδειγμα.δοκιμή", "café.fr"]
UNI_LOCAL = ["josé.garcía", "jürgen.müller", "用户", "δοκιμή", "françois", "søren", "zoë.kraus", "Pelé", "иван"]
FILL = ("the dashboard shows the request took longer than usual so we retried it twice and then "
        "escalated the ticket to the on-call engineer who checked the queue and the cache before "
        "closing it as a transient failure in the upstream provider").split()


def prose(r, n):
    return " ".join(r.choice(FILL) for _ in range(n))


def email(r):
    form = r.choice(["ascii", "ascii", "plus", "sub", "unicode_local", "idn", "zero_width"])
    if form == "ascii":
        return "%s.%s@%s" % (r.choice(FIRST), r.choice(["smith", "garcia", "chen", "rossi"]), r.choice(DOMAINS)), form
    if form == "plus":
        return "%s+%s@%s" % (r.choice(FIRST), r.choice(["billing", "test", "news"]), r.choice(DOMAINS)), form
    if form == "sub":
        return "%s_%d@%s" % (r.choice(FIRST), r.randint(1, 99), r.choice(["eu.mail.example.com", "dev.example.io"])), form
    if form == "unicode_local":
        return "%s@%s" % (r.choice(UNI_LOCAL), r.choice(DOMAINS + IDN)), form
    if form == "idn":
        return "%s@%s" % (r.choice(FIRST), r.choice(IDN)), form
    name = r.choice(FIRST)
    k = r.randint(1, len(name) - 1)
    return name[:k] + r.choice(["\u200b", "\u200c", "\u2060", "\u00ad"]) + name[k:] + "@" + r.choice(DOMAINS), form


PHONE_CTX = ["call", "phone:", "Tel.:", "tel", "mobile", "cell:", "reach me on", "Telefon", "téléphone", "contact number", "fax", "WhatsApp"]


def phone_intl(r):
    form = r.choice(["us", "us_paren", "us_dash", "de", "de_trunk", "uk_trunk", "uk_mobile", "fr", "fr_trunk",
                     "in", "jp", "br", "au", "au_mobile", "e164", "us_cc_paren", "us_plus_paren"])
    d = lambda n: rs(r, string.digits, n)
    nz = lambda: r.choice("23456789")
    if form == "us":
        return "+1 %s%s %s%s %s" % (nz(), d(2), nz(), d(2), d(4)), form
    if form == "us_paren":
        return "(%s%s) %s%s-%s" % (nz(), d(2), nz(), d(2), d(4)), form
    if form == "us_cc_paren":
        return "1 (%s%s) %s%s-%s" % (nz(), d(2), nz(), d(2), d(4)), form
    if form == "us_plus_paren":
        return "+1 (%s%s) %s%s-%s" % (nz(), d(2), nz(), d(2), d(4)), form
    if form == "us_dash":
        return "%s%s-%s%s-%s" % (nz(), d(2), nz(), d(2), d(4)), form
    if form == "de":
        return "+49 %s %s" % (r.choice(["30", "89", "40", "171", "151"]), d(r.choice([7, 8]))), form
    if form == "de_trunk":
        return "+49 (0)%s %s" % (r.choice(["30", "89", "40"]), d(7)), form
    if form == "uk_trunk":
        return "+44 (0)20 %s %s" % (d(4), d(4)), form
    if form == "uk_mobile":
        return "+44 7%s %s" % (d(3), d(6)), form
    if form == "fr":
        return "+33 %s %s %s %s %s" % (r.choice("1234567"), d(2), d(2), d(2), d(2)), form
    if form == "fr_trunk":
        return "+33 (0)%s %s %s %s %s" % (r.choice("1234567"), d(2), d(2), d(2), d(2)), form
    if form == "in":
        return r.choice(["+91 %s%s %s", "+91-%s%s%s"]) % (r.choice("6789"), d(4), d(5)), form
    if form == "jp":
        return "+81 %s-%s-%s" % (r.choice(["3", "90", "80"]), d(4), d(4)), form
    if form == "br":
        return "+55 %s 9%s-%s" % (d(2).replace("0", "1"), d(4), d(4)), form
    if form == "au":
        return "+61 %s %s %s" % (r.choice("2378"), d(4), d(4)), form
    if form == "au_mobile":
        return "+61 4%s %s %s" % (d(2), d(3), d(3)), form
    return "+%s%s" % (r.choice(["49", "44", "33", "91", "81", "61"]), d(r.randint(9, 10))), form


def phone_national(r):
    form = r.choice(["de", "de_slash", "uk", "uk_mobile", "fr", "fr_dots", "jp", "jp_mobile", "br", "au", "au_mobile", "in"])
    d = lambda n: rs(r, string.digits, n)
    return {
        "de": lambda: "0%s %s" % (r.choice(["30", "89", "40", "171"]), d(r.choice([7, 8]))),
        "de_slash": lambda: "0%s/%s" % (r.choice(["30", "89", "221"]), d(7)),
        "uk": lambda: "020 %s %s" % (d(4), d(4)),
        "uk_mobile": lambda: "07%s %s" % (d(3), d(6)),
        "fr": lambda: "0%s %s %s %s %s" % (r.choice("1234567"), d(2), d(2), d(2), d(2)),
        "fr_dots": lambda: "0%s.%s.%s.%s.%s" % (r.choice("1234567"), d(2), d(2), d(2), d(2)),
        "jp": lambda: "03-%s-%s" % (d(4), d(4)),
        "jp_mobile": lambda: "090-%s-%s" % (d(4), d(4)),
        "br": lambda: "(%s) 9%s-%s" % (r.choice(["11", "21", "31", "41"]), d(4), d(4)),
        "au": lambda: "(0%s) %s %s" % (r.choice("2378"), d(4), d(4)),
        "au_mobile": lambda: "04%s %s %s" % (d(2), d(3), d(3)),
        "in": lambda: "%s%s %s" % (r.choice("6789"), d(4), d(5)),
    }[form](), "national_" + form


def ssn(r):
    while True:
        a = r.randint(1, 899)
        if a != 666:
            break
    return a, r.randint(1, 99), r.randint(1, 9999)


def ssn_text(parts, sep):
    a, g, s = parts
    return "%03d%s%02d%s%04d" % (a, sep, g, sep, s)


def jwt(r):
    head = base64.urlsafe_b64encode(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()).decode().rstrip("=")
    body = base64.urlsafe_b64encode(json.dumps({"sub": rs(r, string.digits, 8), "iat": r.randint(1.6e9, 1.8e9)}).encode()).decode().rstrip("=")
    return "%s.%s.%s" % (head, body, rs(r, AN + "-_", 43))


PEM_KINDS = ["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", "DSA "]


def pem(r):
    kind = r.choice(PEM_KINDS)
    lines = [rs(r, B64, 64) for _ in range(r.randint(4, 12))] + [rs(r, B64, r.randint(8, 60)) + "=="]
    return "-----BEGIN %sPRIVATE KEY-----\n%s\n-----END %sPRIVATE KEY-----" % (kind, "\n".join(lines), kind), kind.strip().lower() or "pkcs8"


def api_key(r):
    """(text before, secret, text after, form): the secret is the item."""
    form = r.choice([
        "openai_proj", "openai_marked", "openai_random", "openai_ctx", "anthropic", "aws_id", "aws_secret",
        "github_pat", "github_fine", "gitlab", "slack_bot", "slack_webhook", "google", "google_oauth",
        "stripe", "hf", "hf_org", "npm", "pypi", "azure_openai", "azure_client_secret", "azure_storage",
        "perplexity", "shopify", "sentry", "linear",
        "hdr_bearer", "hdr_basic", "hdr_json", "hdr_dict", "hdr_curl", "hdr_xapikey", "bare_bearer",
        # Issue 36: keys known only by the syntax around them.
        "code_hdr_basic", "code_hdr_xapikey", "code_hdr_token", "bare_bearer_hex", "flag_token",
        "aws_cli", "yaml_env",
    ])
    k = {
        "openai_proj": lambda: ("OPENAI_API_KEY=", "sk-proj-" + rs(r, AN + "_-", 48) + "T3BlbkFJ" + rs(r, AN + "_-", 48), ""),
        "openai_marked": lambda: ("key ", "sk-" + mixed(r, 20) + "T3BlbkFJ" + mixed(r, 20), ""),
        "openai_random": lambda: ("", "sk-" + mixed(r, 48), ""),
        "openai_ctx": lambda: ("openai key: ", "sk-" + rs(r, LOWER, 32), ""),
        "anthropic": lambda: ("ANTHROPIC_API_KEY=", "sk-ant-api03-" + rs(r, AN + "_-", 93) + "AA", ""),
        "aws_id": lambda: ("aws_access_key_id = ", r.choice(["AKIA", "ASIA"]) + rs(r, string.ascii_uppercase + "234567", 16), ""),
        "aws_secret": lambda: (r.choice(["aws_secret_access_key = ", "AWS_SECRET_ACCESS_KEY=", '"SecretAccessKey": "']), mixed(r, 40, "/+"), ""),
        "github_pat": lambda: ("token ", "ghp_" + mixed(r, 36), ""),
        "github_fine": lambda: ("", "github_pat_" + mixed(r, 22) + "_" + mixed(r, 59), ""),
        "gitlab": lambda: ("", "glpat-" + rs(r, AN + "_-", 20), ""),
        "slack_bot": lambda: ("", "xoxb-%s-%s-%s" % (rs(r, string.digits, 12), rs(r, string.digits, 12), mixed(r, 24)), ""),
        "slack_webhook": lambda: ("", "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(r, string.ascii_uppercase + string.digits, 8), rs(r, string.ascii_uppercase + string.digits, 10), mixed(r, 24)), ""),
        "google": lambda: ("", "AIza" + rs(r, AN + "_-", 35), ""),
        "google_oauth": lambda: ("", "GOCSPX-" + rs(r, AN + "_-", 28), ""),
        "stripe": lambda: ("", r.choice(["sk_live_", "rk_live_", "sk_test_"]) + mixed(r, 24), ""),
        "hf": lambda: ("", "hf_" + rs(r, A, 34), ""),
        "hf_org": lambda: ("", "api_org_" + rs(r, A, 34), ""),
        "npm": lambda: ("", "npm_" + mixed(r, 36), ""),
        "pypi": lambda: ("", "pypi-AgEIcHlwaS5vcmc" + rs(r, AN + "_-", 70), ""),
        "azure_openai": lambda: (r.choice(["AZURE_OPENAI_API_KEY=", "api-key: ", '"azure_openai_key": "']), rs(r, HEX, 32), ""),
        "azure_client_secret": lambda: (r.choice(["client_secret=", "AZURE_CLIENT_SECRET: "]), rs(r, AN + "_~.", 3) + r.choice(string.digits) + "Q~" + rs(r, AN + "_~.-", 34), ""),
        "azure_storage": lambda: ("DefaultEndpointsProtocol=https;AccountName=acct%d;AccountKey=" % r.randint(1, 99), rs(r, B64, 86) + "==", ";EndpointSuffix=core.windows.net"),
        "perplexity": lambda: ("", "pplx-" + mixed(r, 48), ""),
        "shopify": lambda: ("", r.choice(["shpat_", "shpss_"]) + rs(r, HEX, 32), ""),
        "sentry": lambda: ("", "sntryu_" + rs(r, HEX, 64), ""),
        "linear": lambda: ("", "lin_api_" + mixed(r, 40), ""),
        "hdr_bearer": lambda: (r.choice(["Authorization: Bearer ", "authorization: bearer ", "AUTHORIZATION: Bearer "]), mixed(r, 40, "._-"), ""),
        "hdr_basic": lambda: ("Authorization: Basic ", base64.b64encode((r.choice(FIRST) + ":" + mixed(r, 12)).encode()).decode(), ""),
        "hdr_json": lambda: ('{"Authorization": "Bearer ', mixed(r, 40), '"}'),
        "hdr_dict": lambda: ("headers = {'authorization': 'Token ", mixed(r, 32), "'}"),
        "hdr_curl": lambda: ("curl -H 'Authorization: Bearer ", mixed(r, 36), "' https://api.example.com/v1/chat"),
        "hdr_xapikey": lambda: (r.choice(["x-api-key: ", '"X-API-Key": "', "api_key=", "PRIVATE-TOKEN: "]), mixed(r, 32), ""),
        "bare_bearer": lambda: ("use Bearer ", mixed(r, 40), " for the call"),
        "code_hdr_basic": lambda: (r.choice(['xhr.setRequestHeader("Authorization", "Basic ', "headers.put('Authorization', 'Basic "]),
                                   base64.b64encode((r.choice(FIRST) + ":" + mixed(r, 12)).encode()).decode(), r.choice(['");', "');"])),
        "code_hdr_xapikey": lambda: (r.choice(['xhr.setRequestHeader("X-Api-Key", "', "headers.set('x-api-key', '", 'req.add_header("X-API-Key", "']),
                                     rs(r, HEX, 32), r.choice(['");', "')"])),
        "code_hdr_token": lambda: (r.choice(['setRequestHeader("Authorization", "Token ', '{"Authorization": "Token ', "Authorization: Token "]),
                                   rs(r, HEX, 40), '"'),
        "bare_bearer_hex": lambda: (r.choice(["try Bearer ", "the header Bearer ", "sent Bearer "]), rs(r, HEX + LOWER, 40), " and it worked"),
        "flag_token": lambda: (r.choice(["--token ", "--api-key ", "--token=", "--secret-key ", "--access-token "]), mixed(r, 40, "/+"), " --verbose"),
        "aws_cli": lambda: ("aws configure set aws_secret_access_key ", mixed(r, 40, "/+"), ""),
        "yaml_env": lambda: (r.choice(["- name: AWS_SECRET_ACCESS_KEY\n  value: ", "env:\n  AWS_SECRET_ACCESS_KEY: ", "- name: API_TOKEN\n  value: \""]),
                             mixed(r, 40, "/+"), ""),
    }[form]()
    return k[0], k[1], k[2], form


def url_credentials(r):
    scheme, host = r.choice([("postgres", "db.internal:5432/app"), ("mysql", "10.0.3.4:3306/shop"),
                             ("redis", "cache:6379/0"), ("https", "git.example.com/org/repo.git"),
                             ("mongodb+srv", "cluster0.example.net/test"), ("amqp", "mq.internal:5672")])
    user = r.choice(["admin", "app", "deploy", "", "svc_user"])
    pw = r.choice([mixed(r, 14), mixed(r, 10) + "%40" + rs(r, LOWER, 4), rs(r, LOWER, 6) + str(r.randint(10, 99))])
    return "%s://%s:" % (scheme, user), pw, "@" + host, scheme


# ----------------------------------------------------------- look-alikes

def lookalike(r):
    kind = r.choice([
        "version4", "version4_pip", "version4_file", "semver", "chrome_ua", "uuid", "uuid_digits", "trace_id",
        "span_id", "date_iso", "date_eu", "date_us", "datetime", "time", "price_usd", "price_eur", "order",
        "order_dashed", "order_digits9", "tracking_usps", "tracking_ups", "tracking_fedex", "git_remote",
        "image_2x", "placeholder_bearer", "placeholder_sk", "placeholder_env", "public_key", "epoch_ms",
        "luhn_bad_card", "iban_bad", "isbn", "port", "math_plus", "hex_hash", "sku", "ssn_like_ref",
        "phone_like_noctx", "ip_like_oid", "cidr_like_version", "snowflake_id",
        # Issue 36: versions under a version key, ids under an id key,
        # tracking numbers after a tracking word.
        "version4_key", "version4_attr", "id_key_digits", "snowflake_any", "tracking_phone", "tracking_grouped",
    ])
    d = lambda n: rs(r, string.digits, n)
    v = lambda: str(r.randint(0, 255))
    if kind == "version4":
        return r.choice(["version ", "Version: ", "upgraded to build ", "firmware ", "release "]) , "%d.%d.%d.%s" % (r.randint(0, 20), r.randint(0, 30), r.randint(0, 200), v()), kind
    if kind == "version4_pip":
        return r.choice(["foo==", "pkg>=", "lib~="]), "%d.%d.%d.%d" % (r.randint(0, 9), r.randint(0, 30), r.randint(0, 20), r.randint(0, 9)), kind
    if kind == "version4_file":
        return "", "app-%d.%d.%d.%d.tar.gz" % (r.randint(0, 9), r.randint(0, 9), r.randint(0, 20), r.randint(0, 99)), kind
    if kind == "semver":
        return "v", "%d.%d.%d" % (r.randint(0, 9), r.randint(0, 30), r.randint(0, 99)), kind
    if kind == "chrome_ua":
        return "", "Mozilla/5.0 Chrome/%d.0.%d.%d Safari/537.36" % (r.randint(100, 130), r.randint(1000, 7000), r.randint(10, 200)), kind
    if kind == "uuid":
        return "", "%s-%s-%s-%s-%s" % (rs(r, HEX, 8), rs(r, HEX, 4), rs(r, HEX, 4), rs(r, HEX, 4), rs(r, HEX, 12)), kind
    if kind == "uuid_digits":
        # A UUID whose hex happens to be digits: Luhn runs inside.
        return "", "%s-%s-%s-%s-%s" % (d(8), d(4), d(4), d(4), d(12)), kind
    if kind == "trace_id":
        return '"trace_id": "', rs(r, HEX, 32), kind
    if kind == "span_id":
        return '"span_id": "', rs(r, HEX, 16), kind
    if kind == "date_iso":
        return "", "2026-%02d-%02d" % (r.randint(1, 12), r.randint(1, 28)), kind
    if kind == "date_eu":
        return "", "%02d.%02d.2026" % (r.randint(1, 28), r.randint(1, 12)), kind
    if kind == "date_us":
        return "", "%02d/%02d/2026" % (r.randint(1, 12), r.randint(1, 28)), kind
    if kind == "datetime":
        return "", "2026-%02d-%02dT%02d:%02d:%02d.%03dZ" % (r.randint(1, 12), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59), r.randint(0, 999)), kind
    if kind == "time":
        return "at ", "%02d:%02d:%02d" % (r.randint(0, 23), r.randint(0, 59), r.randint(0, 59)), kind
    if kind == "price_usd":
        return "", "$%d,%03d.%02d" % (r.randint(1, 99), r.randint(0, 999), r.randint(0, 99)), kind
    if kind == "price_eur":
        return "", "€%d.%03d,%02d" % (r.randint(1, 99), r.randint(0, 999), r.randint(0, 99)), kind
    if kind == "order":
        return "order ", "#%d" % r.randint(100000, 9999999), kind
    if kind == "order_dashed":
        return "order ", "ORD-2026%02d%02d-%04d" % (r.randint(1, 12), r.randint(1, 28), r.randint(0, 9999)), kind
    if kind == "order_digits9":
        return r.choice(["order ", "invoice ", "customer id "]), "%d" % r.randint(100000000, 999999999), kind
    if kind == "tracking_usps":
        # A 22-digit number grouped in fours (some hold a card-valid run).
        return r.choice(["tracking ", "USPS tracking ", "tracking number: "]), group4(r.choice(["9400", "9205", "9361"]) + d(18)), kind
    if kind == "tracking_ups":
        return "tracking ", "1Z%s%s" % (rs(r, string.ascii_uppercase + string.digits, 6), d(10)), kind
    if kind == "tracking_fedex":
        return "FedEx ", "%s %s %s" % (d(4), d(4), d(4)), kind
    if kind == "git_remote":
        return "", "git@github.com:%s/%s.git" % (r.choice(FIRST), r.choice(["api", "web", "infra"])), kind
    if kind == "image_2x":
        return "", "%s@%dx.png" % (r.choice(["logo", "hero", "icon"]), r.randint(2, 3)), kind
    if kind == "placeholder_bearer":
        return "Authorization: Bearer ", r.choice(["YOUR_API_KEY", "<token>", "xxxxxxxxxxxx", "${TOKEN}", "{{api_key}}"]), kind
    if kind == "placeholder_sk":
        return "OPENAI_API_KEY=", r.choice(["sk-...", "sk-xxxxxxxxxxxxxxxxxxxxxxxx", "<your key>", "sk-your-key-here"]), kind
    if kind == "placeholder_env":
        return "aws_secret_access_key = ", r.choice(["${AWS_SECRET}", "REPLACE_ME", "<secret>"]), kind
    if kind == "public_key":
        return "", "-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----" % rs(r, B64, 64), kind
    if kind == "epoch_ms":
        return "ts=", "%d" % r.randint(1_700_000_000_000, 1_800_000_000_000), kind
    if kind == "luhn_bad_card":
        while True:
            c, _ = card_number(r)
            c = c[:-1] + str((int(c[-1]) + 1) % 10)
            if not luhn_ok(c):
                return "card ", group4(c), kind
    if kind == "iban_bad":
        i = iban(r)
        return "IBAN ", i[:2] + "%02d" % ((int(i[2:4]) + 1) % 100) + i[4:], kind
    if kind == "isbn":
        return "ISBN ", "978-%d-%02d-%06d-%d" % (r.randint(0, 9), r.randint(10, 99), r.randint(0, 999999), r.randint(0, 9)), kind
    if kind == "port":
        return "listening on ", "0.0.0.0:%d" % r.randint(1024, 65535) if False else "port %d" % r.randint(1024, 65535), kind
    if kind == "math_plus":
        return "", "%d+%d" % (r.randint(1, 9), r.randint(10_000_000, 99_999_999)), kind
    if kind == "hex_hash":
        return "sha256:", rs(r, HEX, 64), kind
    if kind == "sku":
        return "SKU ", "%s-%s-%s" % (rs(r, string.ascii_uppercase, 3), d(3), d(4)), kind
    if kind == "ssn_like_ref":
        return "ref ", "%s %s %s" % (d(3), d(2), d(4)), kind
    if kind == "phone_like_noctx":
        return "batch ", "0%s %s" % (d(3), d(7)), kind
    if kind == "ip_like_oid":
        return "OID ", "1.3.6.1.4.1.%d" % r.randint(1000, 99999), kind
    if kind == "cidr_like_version":
        return "Version: ", "%d.%d.%d.%d" % (r.randint(1, 9), r.randint(0, 9), r.randint(0, 9), r.randint(0, 255)), kind
    if kind == "version4_key":
        return r.choice(["agent_version=", "app_version: ", '"sdk_version": "', "FileVersion=", "driver_ver="]), "%d.%d.%d.%d" % (r.randint(1, 20), r.randint(0, 30), r.randint(0, 20), r.randint(0, 99)), kind
    if kind == "version4_attr":
        return r.choice(['[assembly: AssemblyVersion("', '[assembly: AssemblyFileVersion("', "<Version>"]), "%d.%d.%d.%d" % (r.randint(1, 20), r.randint(0, 20), r.randint(0, 300), r.randint(0, 255)), kind
    if kind == "id_key_digits":
        return r.choice(['"id": "', '"message_id": ', "channel_id=", '"guildId": "', "user_id: "]), r.choice("3456") + d(r.choice([17, 18])), kind
    if kind == "snowflake_any":
        return r.choice(["message ", "tweet ", "Discord message "]), r.choice("2345689") + d(r.choice([17, 18])), kind
    if kind == "tracking_phone":
        return r.choice(["tracking number: ", "Tracking number ", "parcel number "]), "%d-%d-%s" % (r.randint(200, 999), r.randint(200, 999), d(4)), kind
    if kind == "tracking_grouped":
        return r.choice(["tracking number ", "Sendungsnummer "]), "%s %s %s" % (d(4), d(4), d(4)), kind
    # Snowflake-style ids (Twitter, Discord): 17-19 digits, starting with 1.
    return "id ", "1%s" % d(r.choice([16, 17, 18])), kind


# -------------------------------------------------------------- planting

def plant(r, doc):
    """Plants one item of a random class (with its realistic lead-in)."""
    cls = r.choice(["email", "phone", "phone", "us_ssn", "credit_card", "iban", "ipv4", "ipv6",
                    "api_key", "api_key", "api_key", "jwt", "private_key", "url_credentials"])
    if cls == "email":
        e, form = email(r)
        wrap = r.choice([("", ""), ("<", ">"), ('"', '"'), ("“", "”"), ("mailto:", ""), ("(", ")")])
        doc.t(r.choice(["email ", "contact: ", "send it to ", "cc ", "From: "]) + wrap[0])
        doc.item(e, "email", form)
        doc.t(wrap[1])
    elif cls == "phone":
        if r.random() < 0.55:
            p, form = phone_intl(r)
            doc.t(r.choice(["", "call ", "phone ", "whatsapp: ", "number "]))
            doc.item(p, "phone", form)
        else:
            p, form = phone_national(r)
            if r.random() < 0.85:
                doc.t(r.choice(PHONE_CTX) + " ")
                doc.item(p, "phone", form)
            else:
                doc.t(r.choice(["ref ", "", "batch "]))
                doc.item(p, "phone", form + "_noctx", claimed=False)
    elif cls == "us_ssn" and r.random() < 0.3:
        # Issue 36: an SSN known by the table it stands in, or spaced on
        # its own (the 3-2-4 grouping and the ranges tell).
        parts = ssn(r)
        form = r.choice(["md_table", "md_table_spaced", "spaced_bare"])
        if form == "spaced_bare":
            doc.t(r.choice(["", "number ", "it is "]))
            doc.item(ssn_text(parts, " "), "us_ssn", form)
        else:
            doc.t("\n| Name | %s | Form |\n|------|-----|------|\n| %s %s | " % (r.choice(["SSN", "ssn", "Social Security"]), r.choice(FIRST).title(), r.choice(LAST).title()))
            doc.item(ssn_text(parts, "-" if form == "md_table" else " "), "us_ssn", form)
            doc.t(" | W-2 |\n")
    elif cls == "us_ssn":
        parts = ssn(r)
        form = r.choice(["dashed", "dashed", "spaced", "solid"])
        ctx = r.random() < 0.85
        if form == "dashed" or ctx:
            doc.t(r.choice(["SSN: ", "ssn ", "Social Security Number ", '"ssn": "', "SS# ", "my social security is "]) if ctx or form != "dashed" else r.choice(["", "id ", "number "]))
            doc.item(ssn_text(parts, {"dashed": "-", "spaced": " ", "solid": ""}[form]), "us_ssn", form + ("" if ctx else "_bare"))
        else:
            doc.t(r.choice(["", "number ", "id "]))
            doc.item(ssn_text(parts, " " if form == "spaced" else ""), "us_ssn", form + "_noctx", claimed=False)
    elif cls == "credit_card":
        c, kind = card_number(r)
        sep = r.choice(["", " ", " ", "-", ".", "/", "_", "\u00a0", "\u2013", "\t"])
        if kind == "amex" and sep:
            s = c[:4] + sep + c[4:10] + sep + c[10:]
        else:
            s = group4(c, sep) if sep else c
        doc.t(r.choice(["card ", "cc: ", "Card number ", '"pan": "', "paid with "]))
        doc.item(s, "credit_card", kind + ("_" + {"": "solid", " ": "space", "\u00a0": "nbsp", "\u2013": "endash", "\t": "tab"}.get(sep, sep)))
    elif cls == "iban":
        i = iban(r)
        spaced = r.random() < 0.5
        doc.t(r.choice(["IBAN ", "iban: ", "transfer to ", '"iban": "']))
        doc.item(group4(i) if spaced else i, "iban", "spaced" if spaced else "compact")
    elif cls == "ipv4":
        ip = "%d.%d.%d.%d" % (r.choice([10, 172, 192, 34, 52, 203, 81]), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))
        lead = r.choice(["client ", "from ", "X-Forwarded-For: ", '"ip": "', "ssh root@", "remote_addr=", "connect to ", ""])
        doc.t(lead)
        doc.item(ip, "ipv4", "log")
        if r.random() < 0.3:
            doc.t(":%d" % r.randint(1024, 65535))
    elif cls == "ipv6":
        form = r.choice(["full", "compressed", "link_local", "bracketed", "mapped", "mapped_nat64", "v4_tail"])
        g = lambda: "%x" % r.randint(1, 0xffff)
        if form == "full":
            ip = ":".join("%04x" % r.randint(0, 0xffff) for _ in range(8))
        elif form == "compressed":
            ip = "2001:db8::%s:%s" % (g(), g())
        elif form == "link_local":
            ip = "fe80::%s:%s:%s" % (g(), g(), g())
        elif form in ("mapped", "mapped_nat64", "v4_tail"):
            v4 = "%d.%d.%d.%d" % (r.choice([10, 81, 52, 192]), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))
            ip = {"mapped": "::ffff:", "mapped_nat64": "64:ff9b::", "v4_tail": "2001:db8::%s:" % g()}[form] + v4
        else:
            ip = "2001:db8:%s::%s" % (g(), g())
        doc.t(r.choice(["addr ", "from ", "client=", "["]) if form != "bracketed" else "[")
        doc.item(ip, "ipv6", form)
        if form == "bracketed":
            doc.t("]:443")
    elif cls == "api_key":
        before, secret, after, form = api_key(r)
        doc.t(before)
        doc.item(secret, "api_key", form)
        doc.t(after)
    elif cls == "jwt":
        doc.t(r.choice(["token=", "jwt: ", '"id_token": "', "Cookie: session="]))
        doc.item(jwt(r), "jwt", "hs256")
    elif cls == "private_key":
        k, kind = pem(r)
        form = r.choice(["raw", "json", "yaml"])
        if form == "raw":
            doc.t("here is the key:\n")
            doc.item(k, "private_key", kind + "_raw")
        elif form == "json":
            doc.t('{"type": "service_account", "private_key": "')
            doc.item(k.replace("\n", "\\n"), "private_key", kind + "_json")
            doc.t('\\n", "client_email": "')
            doc.item("svc-%d@proj-%d.iam.gserviceaccount.com" % (r.randint(1, 99), r.randint(100, 999)), "email", "service_account")
            doc.t('"}')
        else:
            doc.t("tls:\n  key: |\n    ")
            doc.item(k.replace("\n", "\n    "), "private_key", kind + "_yaml")
            doc.t("\n")
    else:
        before, pw, after, scheme = url_credentials(r)
        doc.t(r.choice(["DATABASE_URL=", "connect with ", "url: ", ""]) + before)
        doc.item(pw, "url_credentials", scheme)
        # A host given as an address is one too.
        host = after[1:].split(":")[0].split("/")[0]
        if all(p.isdigit() for p in host.split(".")) and host.count(".") == 3:
            doc.t("@")
            doc.item(host, "ipv4", "url_host")
            doc.t(after[1 + len(host):])
        else:
            doc.t(after)


def look(r, doc):
    before, s, kind = lookalike(r)
    doc.t(before)
    doc.look(s, kind)


def chunk(r, doc):
    """One sentence, log line, JSON or YAML pair or code line around a
    planted item or a look-alike (or both)."""
    shape = r.choice(["chat", "chat", "log", "json", "yaml", "code", "config"])
    what = [plant if r.random() < 0.5 else look for _ in range(r.randint(1, 2))]
    if shape == "chat":
        doc.t(r.choice(["Hi, ", "Thanks! ", "Sure, ", "Can you check why ", "Please update "]) + prose(r, r.randint(3, 10)) + " ")
        for f in what:
            f(r, doc)
            doc.t(" " + prose(r, r.randint(1, 5)) + " ")
        doc.t(r.choice([".\n", "?\n", "!\n", ". "]))
    elif shape == "log":
        doc.t("2026-%02d-%02dT%02d:%02d:%02dZ %s [%s] " % (r.randint(1, 12), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59),
                                                         r.choice(["INFO", "WARN", "ERROR", "DEBUG"]), r.choice(["api", "worker", "auth", "billing"])))
        for f in what:
            f(r, doc)
            doc.t(" " + r.choice(["status=200", "latency_ms=%d" % r.randint(1, 900), "retry=1", "ok", "-"]) + " ")
        doc.t("\n")
    elif shape == "json":
        doc.t('{"event": "%s", "detail": "' % r.choice(["login", "payment", "export", "chat"]))
        for f in what:
            f(r, doc)
            doc.t(" ")
        doc.t('", "n": %d}\n' % r.randint(0, 999))
    elif shape == "yaml":
        doc.t("%s:\n  %s: " % (r.choice(["service", "contact", "billing", "deploy"]), r.choice(["value", "note", "owner", "target"])))
        for f in what:
            f(r, doc)
            doc.t(" ")
        doc.t("\n")
    elif shape == "code":
        doc.t(r.choice(["    result = client.send(", "  const v = ", "let x = ", "print("]) + r.choice(["'", '"', "`", ""]))
        for f in what:
            f(r, doc)
            doc.t(" ")
        doc.t(r.choice(["')\n", '");\n', "`;\n", ")\n"]))
    else:
        doc.t("%s = " % r.choice(["owner", "NOTE", "target", "value"]))
        for f in what:
            f(r, doc)
            doc.t(" ")
        doc.t("\n")


SPLITS = ("tune", "heldout") + tuple("heldout%d" % n for n in range(2, 24))


def main():
    args = sys.argv[1:]
    split = "tune"
    if "--split" in args:
        i = args.index("--split")
        split = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
    if len(args) not in (2, 3) or split not in SPLITS:
        sys.exit(__doc__)
    docs, out = int(args[0]), args[1]
    seed = int(args[2]) if len(args) == 3 else 20
    r = random.Random(seed + {"heldout7": 7007, "heldout8": 8008, "heldout9": 9009, "heldout10": 10010, "heldout11": 11011, "heldout12": 12012, "heldout13": 13013, "heldout14": 14014, "heldout15": 15015, "heldout16": 16016, "heldout17": 17017, "heldout18": 18018, "heldout19": 19019, "heldout20": 20020, "heldout21": 21021, "heldout22": 22022, "heldout23": 23023}.get(split, 0))
    heldout = None
    if split != "tune":
        sys.path.insert(0, __import__("os").path.dirname(__file__))
        # `heldoutN` is `detect_heldoutN.heldoutN_doc`.
        heldout = getattr(importlib.import_module("detect_" + split), split + "_doc")
    with open(out, "w", encoding="utf-8") as f:
        for _ in range(docs):
            doc = Doc()
            if heldout:
                heldout(r, doc, sys.modules[__name__])
            else:
                for _ in range(r.randint(3, 9)):
                    chunk(r, doc)
            f.write(json.dumps({"text": doc.text(), "items": doc.items, "looks": doc.looks}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
