"""The twenty-first held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout21`; not run on its own.

A twenty-second template family, written and committed before any detector
change of the round that tunes on heldout20, from real-world formats and
not from the detectors' code: the session that wrote it did not read the
detectors (`crates/tracegate/src/redact`, `finding*`), their
documentation, the detection sections of benches/README.md or any
split's report or spans; it read `detect_corpus.py`, `detect_values.py`,
`detect_score.py` and `detect_heldout20.py` for the interface and
grepped the twenty earlier families only for surroundings, value shapes,
separators, digit scripts, provider prefixes and URL schemes to keep
clear of. Only its summary and per-class table are looked at until the
round's final measurement.

Surroundings that no other family writes, most from mobile release
engineering, game engines, embedded firmware, network gear,
bioinformatics, documentation toolchains, transit and logistics,
libraries, US tax and court filings: Fastlane `Appfile`, `Matchfile` and
`.env` files (with a `!ruby/object` YAML tag), Gradle keystore
properties, Godot `export_presets.cfg`, Unreal `DefaultEngine.ini`,
PlatformIO `platformio.ini` (quotes escaped in `build_flags`), Zephyr
`prj.conf`, Arduino `secrets.h` and `PROGMEM` raw strings, Tasmota
`Backlog` commands, U-Boot environments, `adb` and emulator console
commands, Cisco IOS-XE and Huawei VRP configuration, VCF headers, SAM
`@CO` and `@RG` lines, CWL, WDL/Cromwell inputs, Galaxy tool XML,
R Markdown headers, Perl POD and Perl strings (`\\@`), Doxygen,
groff man pages (`\\-`, `\\ `), Sphinx `conf.py`, mdBook `book.toml`,
Mustache and Smarty templates, JavaScript, CSS, Rust and C string
escapes of an at sign, GTFS `agency.txt` and `feed_info.txt`, EDIFACT
`COM`, `FII` and `FTX` segments with the release character (`?+`,
`?:`, `?'`), Czech SPD payment strings, MARC 21 (`=270`, `=856`),
CM/ECF notices of electronic filing, IRS FIRE 1099 `B` records, ACA AIR
1095-C XML, Death Master File records, macOS `security` and `defaults`,
`wgetrc`, Docker Compose values with `$$`, Apprise notification URLs;
prose in Laz, Svan, Zaza, Gilaki, Mazanderani, Brahui, Saraiki, Tulu,
Kodava, Mundari, Garo, Bodo, Ladakhi, Sherpa, Newar, Maithili,
Bhojpuri, Awadhi, Magahi, Chhattisgarhi, Marwari, Kutchi, Haryanvi,
Garhwali, Kumaoni, Gascon, Ingrian, Salar and Dungan (short phrases
written by the session, only roughly idiomatic; in many of these
languages only approximations).

Values in shapes the earlier families did not write as such a set:
cards of Mir, Troy, RuPay, Elo, Verve, Dankort, UATP and Maestro (12,
13, 18 and 19 digits) and 13-digit Visa, written in Newa, Tirhuta,
Takri, Modi, Sharada, Khudawadi, Warang Citi, Sora Sompeng, Masaram and
Gunjala Gondi, Ahom, Dives Akuru, Bhaiksuki, Mro, Tangsa, Pahawh and
Nyiakeng Puachue Hmong, Wancho, Tai Tham Hora, Tai Laing, Saurashtra,
Brahmi, Sinhala Lith and sans-serif bold digits, grouped by an ogham
space mark, an em quad, a hyphenation point, a word-separator middle
dot, a hyphen bullet, a modifier minus, a small em dash, a fraction or
division slash, a dot operator or an invisible plus or times, in pairs
of an EMV tag `5A` dump, glued to `D` in an EMV tag `57`, in a Track 1
swipe, in Authorize.Net, Moneris-style and CyberSource XML; phones of
Armenia with the Armenian hyphen, Israel with the maqaf, Japan with
wave dashes, Ireland with ogham space marks, Mongolia with the todo soft
hyphen, Iraq with the Yezidi hyphenation mark, in the new digits, in
EDIFACT `COM` with the plus escaped (`?+`), GTFS, MARC `$k`, groff
(`\\ ` between groups), `adb` intents and emulator SMS, IOS-XE dial
peers and Tasmota; SSNs in FIRE `B` records, AIR XML, DMF records,
with a hyphen bullet, double oblique hyphen, small em dash, modifier
minus, ogham space or em quad, in sans-serif bold digits, and in US
forms in Vietnamese, Tagalog, Korean, Chinese, Japanese, Hindi, Punjabi,
Amharic and Somali; emails escaped by their container (`\\@` in Perl,
`\\x40` in JavaScript, `\\40 ` in CSS, `\\u{40}` in Rust, `\\100` in C,
`&#0064;`, `&#X40;`, `&#x0040;`, POD's `E<lt>`...`E<gt>`, groff's
`\\-`, EDIFACT's `?+`), in Fastlane, SAM, CWL, Galaxy, GTFS, MARC,
CM/ECF, mdBook, Doxygen and RFC 2047 headers; IBANs grouped by an em
quad, an ogham space, a one-dot leader or a dot operator, in EDIFACT
`FII`, Czech SPD strings, and the carriers; provider tokens no family
wrote (Mapbox secret tokens, HubSpot private apps, Plaid secrets and
access tokens, Trello tokens, Opsgenie GenieKeys, Intercom, Datadog
API and application keys, Grafana legacy API keys, Sumo Logic access
keys, Mailchimp keys, legacy LangSmith keys, NCBI keys, Bitwarden
Secrets Manager access tokens, Infisical service tokens, Azure DevOps
PATs, Asana PATs, Godot script encryption keys, Epic Online Services
client secrets and encryption keys) and passwords in the tools' own
syntax (Matchfile basic auth, Gradle keystore, PlatformIO, Zephyr,
Arduino, Tasmota, IOS-XE `secret 0`, `snmp-server community`, `key 0`,
VRP `local-user`, Sphinx `linkcheck_auth`, CWL secrets, wgetrc,
`security -w`, `defaults -string`, Perl strings with `\\@` and `\\$`,
Compose values with `$$`); private keys as a JWK's `d` (and an RSA
JWK's `p`, `q`, `dp`, `dq`, `qi`), as a DER C array, as C string
concatenation, in an Arduino raw string, an App Store Connect `.p8` in
Fastlane's `key_content`, a Nostr `nsec`, a signify secret key and a
Tor onion service key in base64; JWTs in Fastlane, Godot, CWL, SAM,
Tasmota, EDIFACT, planemo, Perl's LWP and the carriers; IPv4 in U-Boot,
VRP, Tasmota, Zephyr, `adb connect`, Compose port bindings, IOS-XE BGP
neighbours, PlatformIO OTA and `steam://connect`; IPv6 as IPv4-mapped hex,
6to4, Teredo, ISATAP, with a zone index (`%eth0`, `%25en0`), with
leading zeros, as a Windows UNC literal (`2001-db8--1.ipv6-literal.net`),
in U-Boot, Zephyr, IOS-XE and VRP; URLs with a password for `mailtos`,
`ntfys`, `matrixs`, `rockets`, `impala`, `solr`, `doris`,
`risingwave`, `clickhouses`, Mesos `zk`, `rtmps`, `smtps`, `s3` (the
key id too), SRT's `passphrase`, `steam://connect` and a Telegram bot
token in `tgram`.

Look-alikes no family wrote as such a set: genome coordinates, dbSNP
and Ensembl ids, Illumina read names (colon runs), VCF positions, MARC
control numbers and LCCNs, Dewey and LC call numbers, GTFS
coordinates, colours and times past midnight, container numbers with
their check digit, TARIC codes, UN/LOCODEs, EIN-shaped employer ids,
FIRE transmitter codes, AIR receipt ids and transmission ids, CM/ECF
case numbers and document stamps, Cisco type 9 hashes, dotted MACs,
config registers and route distinguishers, Huawei ESNs, ESP32 MACs and
partition tables, BLE UUIDs, GNU build ids, Apple team ids, signing
certificate fingerprints (colon hex), Firebase app ids, Android version
codes, Godot uids, Unreal project, product, sandbox and deployment ids,
Plaid client ids, Trello API keys, Mapbox public tokens and what3words
addresses. A look-alike any run of whose digits (solid, or any run of
groups split by one space, dash, dot or slash) of 12 to 19 digits passes
Luhn is drawn again (heldout20's check, copied here with its helpers).

It reuses only the Luhn digit of `detect_corpus.py` and the small value
makers of `detect_values.py`. Its texts are drawn from their own seed
(`detect_corpus.py` offsets the split's seed by 21021). It is the
project's own, like the others.
"""
import base64
import json
import urllib.parse

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, mod97, with_check, family_doc

LOWD = LOW + D
UPD = UP + D
B32 = "abcdefghijklmnopqrstuvwxyz234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

# Decimal digits of scripts no family wrote values in (each block's zero).
ZERO = {"newa": 0x11450, "tirh": 0x114D0, "takr": 0x116C0, "modi": 0x11650, "shrd": 0x111D0, "sind": 0x112F0, "wara": 0x118E0,
        "sora": 0x110F0, "gonm": 0x11D50, "gong": 0x11DA0, "ahom": 0x11730, "diak": 0x11950, "bhks": 0x11C50, "mroo": 0x16A60,
        "tnsa": 0x16AC0, "hmng": 0x16B50, "hmnp": 0x1E140, "wcho": 0x1E2F0, "hora": 0x1A80, "tail": 0xA9F0, "saur": 0xA8D0,
        "brah": 0x11066, "sinh": 0x0DE6, "sansb": 0x1D7EC}


def _digits(s, script):
    """`s` with its ASCII digits written in `script`'s digits."""
    z = ZERO[script]
    return "".join(chr(z + int(c)) if c.isascii() and c.isdigit() else c for c in s)


def _rb(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64(raw):
    return base64.b64encode(raw).decode()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# ------------------------------------------------------------ checks
# heldout20's card check for look-alikes, copied so the family stands alone.

def _luhn_ok(ds):
    total = 0
    for k, c in enumerate(reversed(ds)):
        x = int(c) * (2 if k % 2 else 1)
        total += x - 9 if x > 9 else x
    return total % 10 == 0


def _digit_runs(s):
    groups, seps, cur = [], [], ""
    for k, c in enumerate(s):
        if c.isascii() and c.isdigit():
            cur += c
            continue
        if cur:
            groups.append(cur)
            cur = ""
            seps.append(c if c in " -./" and s[k + 1:k + 2].isdigit() else None)
    if cur:
        groups.append(cur)
    return groups, seps


def _cardish(s):
    """Whether a run of `s`'s digits (solid, or consecutive groups joined by
    one space, dash, dot or slash) of 12 to 19 digits passes Luhn."""
    groups, seps = _digit_runs(s)
    for a in range(len(groups)):
        run = ""
        for b in range(a, len(groups)):
            if b > a and (b - 1 >= len(seps) or seps[b - 1] is None):
                break
            run += groups[b]
            if len(run) > 19:
                break
            if len(run) >= 12 and _luhn_ok(run):
                return True
        if len(groups[a]) > 19:
            g = groups[a]
            for i in range(len(g)):
                for n in range(12, 20):
                    if i + n <= len(g) and _luhn_ok(g[i:i + n]):
                        return True
    return False


def _hx(r, n, upper=False):
    """`n` random hex digits with no card-valid run of digits."""
    while True:
        h = _s(r, UHEX if upper else HEX, n)
        if not _cardish(h):
            return h


def _look(r, doc, make, kind):
    """A look-alike, drawn again until no run of its digits passes as a card."""
    while True:
        v = make()
        if not _cardish(v):
            doc.look(v, kind)
            return


def _plain(make):
    """Fixed-format text around a value (dates, amounts, discretionary data),
    drawn again until no run of its digits passes as a card."""
    while True:
        v = make()
        if not _cardish(v):
            return v


def _uuid(r, upper=False):
    while True:
        h = "%032x" % r.getrandbits(128)
        h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
        u = "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])
        if not _cardish(u):
            return u.upper() if upper else u


def _seq2(doc, form, parts):
    """Text, items and look-alikes in turn: a str is text, a (value, class)
    pair an item, a (value, "look:kind") pair a look-alike."""
    for p in parts:
        if isinstance(p, tuple) and p[1].startswith("look:"):
            doc.look(p[0], p[1][5:])
        elif isinstance(p, tuple):
            doc.item(p[0], p[1], "t_" + form)
        else:
            doc.t(p)


# ------------------------------------------------------------ container escapes

def _edi(s):
    """EDIFACT's release character before each of `+ : ' ?`."""
    return "".join("?" + c if c in "+:'?" else c for c in s)


def _groff(s):
    """A man page's body text: a hyphen as `\\-`, a backslash as `\\e`."""
    return s.replace("\\", "\\e").replace("-", "\\-")


def _perl(s):
    """A Perl double-quoted string: `@`, `$`, `"` and `\\` escaped."""
    return "".join("\\" + c if c in "@$\"\\" else c for c in s)


def _cstr(s):
    return s.replace("\\", "\\\\").replace("\"", "\\\"")


def _compose(s):
    """Docker Compose doubles a literal dollar sign."""
    return s.replace("$", "$$")


# ------------------------------------------------------------ value makers

def _card(r, m):
    """A card of a brand no family wrote much of, with its Luhn digit."""
    kind = r.choice(["mir", "troy", "rupay", "elo", "verve", "dankort", "uatp", "maestro12", "maestro13", "maestro18", "maestro19",
                     "visa13", "visa", "mc2", "amex", "diners", "jcb", "unionpay19"])
    prefix, n = {
        "mir": ("220" + str(r.randint(0, 4)), 16),
        "troy": ("9792", 16),
        "rupay": (r.choice(["607", "608", "652", "653", "817", "818", "508"]), 16),
        "elo": (r.choice(["401178", "431274", "438935", "457631", "504175", "506699", "509048", "627780", "636297", "650031"]), 16),
        "verve": (r.choice(["506099", "506100", "506110", "650002"]), r.choice([16, 19])),
        "dankort": ("5019", 16),
        "uatp": ("1" + _d(r, 3), 15),
        "maestro12": (r.choice(["5018", "5020", "5038", "6304"]), 12),
        "maestro13": (r.choice(["6759", "6761", "6763"]), 13),
        "maestro18": (r.choice(["5018", "6304", "6759"]), 18),
        "maestro19": (r.choice(["5020", "5038", "6763"]), 19),
        "visa13": ("4", 13),
        "visa": ("4", 16),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "diners": (r.choice(["300", "305", "36", "38"]), 14),
        "jcb": (str(r.randint(3528, 3589)), 16),
        "unionpay19": ("62" + _d(r, 4), 19),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    c = body + m.luhn_digit(body)
    assert _luhn_ok(c) and len(c) == n, (kind, c)
    return c, kind


def _groups(c):
    """How the number is grouped when written: 4-6-5 for 15, 4-6-4 for 14,
    4-3-3-3 for 13, 6-13 for 19 now and then, fours otherwise."""
    if len(c) in (14, 15):
        return [c[:4], c[4:10], c[10:]]
    if len(c) == 13:
        return [c[:4], c[4:7], c[7:10], c[10:]]
    return [c[k:k + 4] for k in range(0, len(c), 4)]


CARD_SEPS = {"ogham": "\u1680", "emquad": "\u2001", "hyph_point": "\u2027", "word_sep": "\u2e31", "hyph_bullet": "\u2043",
             "mod_minus": "\u02d7", "small_emdash": "\ufe58", "frac_slash": "\u2044", "div_slash": "\u2215", "dot_op": "\u22c5",
             "inv_plus": "\u2064", "inv_times": "\u2062", "one_dot": "\u2024"}


def _nanp(r):
    return "%s%s" % (_nz(r), _d(r, 2)), _nz(r) + _d(r, 2), _d(r, 4)


# Phones written with a separator of their own script (or a rare one),
# each with its country's grouping.
SEP_PHONES = [
    ("am", "\u058a", lambda r, s: "+374%s%s%s%s%s%s" % (s, r.choice(["91", "93", "94", "77", "98"]), s, _d(r, 2), s, _d(r, 2) + s + _d(r, 2))),
    ("il", "\u05be", lambda r, s: "+972%s5%s%s%s%s%s" % (s, r.choice("02348"), s, _d(r, 3), s, _d(r, 4))),
    ("jp", "\u301c", lambda r, s: "+81%s%s0%s%s%s%s" % (s, r.choice("789"), s, _d(r, 4), s, _d(r, 4))),
    ("ie", "\u1680", lambda r, s: "+353%s8%s%s%s%s%s" % (s, r.choice("35679"), s, _d(r, 3), s, _d(r, 4))),
    ("mn", "\u1806", lambda r, s: "+976%s%s%s%s" % (s, r.choice(["88", "99", "95", "80"]) + _d(r, 2), s, _d(r, 4))),
    ("iq", "\U00010ead", lambda r, s: "+964%s7%s%s%s%s%s" % (s, r.choice("5789") + _d(r, 1), s, _d(r, 3), s, _d(r, 4))),
    ("fo", "\u2e31", lambda r, s: "+298%s%s%s%s" % (s, _d(r, 3), s, _d(r, 3))),
    ("is", "\u02d7", lambda r, s: "+354%s%s%s%s" % (s, r.choice("678") + _d(r, 2), s, _d(r, 4))),
    ("gl", "\u2027", lambda r, s: "+299%s%s%s%s%s%s" % (s, _d(r, 2), s, _d(r, 2), s, _d(r, 2))),
]

# Phones in digits no family wrote, with a lead in the script where it has words.
SCRIPT_PHONES = [
    ("np", "newa", "𑐳𑐶𑐟𑐹𑐣 ", lambda r: "+977 98%s %s" % (_d(r, 2), _d(r, 6))),
    ("in", "tirh", "𑒞𑒹𑒪𑒱𑒤𑒷𑒢 ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in", "takr", "☎ ", lambda r: "+91-%s%s-%s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in", "modi", "☎ ", lambda r: "+91 %s%s%s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in", "shrd", "☎ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("pk", "sind", "☎ ", lambda r: "+92 3%s%s %s" % (r.choice("0123"), _d(r, 2), _d(r, 7))),
    ("in", "wara", "☎ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in", "sora", "☎ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in", "gonm", "☎ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in", "gong", "☎ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in", "ahom", "☎ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("mv", "diak", "☎ ", lambda r: "+960 %s%s-%s" % (r.choice("79"), _d(r, 2), _d(r, 4))),
    ("bd", "mroo", "☎ ", lambda r: "+880 1%s%s-%s" % (r.choice("3456789"), _d(r, 2), _d(r, 6))),
    ("mm", "tnsa", "☎ ", lambda r: "+95 9 %s %s" % (_d(r, 3), _d(r, 5))),
    ("la", "hmng", "☎ ", lambda r: "+856 20 %s %s" % (_d(r, 4), _d(r, 4))),
    ("us", "hmnp", "☎ ", lambda r: "+1 %s %s %s" % _nanp(r)),
    ("th", "hora", "☎ ", lambda r: "+66 %s%s %s %s" % (r.choice("689"), _d(r, 1), _d(r, 3), _d(r, 4))),
    ("mm", "tail", "☎ ", lambda r: "+95 9%s %s" % (_d(r, 4), _d(r, 5))),
    ("in", "saur", "☎ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("lk", "sinh", "☎ ", lambda r: "+94 7%s %s %s" % (r.choice("01245678"), _d(r, 3), _d(r, 4))),
    ("in", "sansb", "📞 ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
]


def _phone(r):
    """An international number in ASCII digits, spaced (shown, E.164 digits)."""
    shape = r.choice([
        lambda: "+679 %s %s" % (r.choice("2789") + _d(r, 2), _d(r, 4)),
        lambda: "+298 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)),
        lambda: "+354 %s %s" % (r.choice("5678") + _d(r, 2), _d(r, 4)),
        lambda: "+230 5%s %s" % (_d(r, 3), _d(r, 4)),
        lambda: "+265 %s %s %s" % (r.choice(["88", "99"]) + _d(r, 1), _d(r, 3), _d(r, 3)),
        lambda: "+598 9%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 3)),
        lambda: "+995 5%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)),
        lambda: "+358 4%s %s %s" % (_d(r, 1), _d(r, 3), _d(r, 4)),
    ])
    v = shape()
    return v, "".join(c for c in v if c.isdigit())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([2, 5, 13, 18, 20, 23, 35, 38, 40, 46, 51, 54, 62, 64, 68, 71, 78, 80, 82, 86, 89, 94, 99, 101,
                                      109, 116, 119, 125, 130, 138, 144, 151, 159, 162, 168, 176, 178, 188, 195, 200, 212, 217, 221]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v4_private(r):
    return r.choice(["192.168.%d.%d" % (r.randint(0, 255), r.randint(2, 254)), "10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
                     "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254))])


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a00:1450:%s:%s::%s" % (g(), g(), g()),
        lambda: "2606:4700:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2a01:4f8:%s:%s::%s" % (g(), g(), g()),
        lambda: "2405:200:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2409:8a00:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2c0f:fb50:%s:%s::%s" % (g(), g(), g()),
        lambda: "2803:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
        lambda: "2a05:d014:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
    ])()


def _v6_odd(r):
    """An IPv6 address in a less common spelling: (form, address)."""
    g = lambda: "%x" % r.randint(1, 0xffff)
    a, b, c, d = r.randint(1, 223), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254)
    form = r.choice(["mapped_hex", "six_to_four", "teredo", "isatap", "leading_zeros", "uncompressed_zeros", "trailing_dcolon", "upper"])
    v = {
        "mapped_hex": lambda: "::ffff:%x:%x" % (a << 8 | b, c << 8 | d),
        "six_to_four": lambda: "2002:%02x%02x:%02x%02x::%s" % (a, b, c, d, g()),
        "teredo": lambda: "2001:0:%x:%x:8000:%x:%x:%x" % (r.randint(0x4000, 0xdfff), r.randint(1, 0xffff), r.randint(1, 0xffff),
                                                         r.randint(0x1000, 0xffff), r.randint(0x1000, 0xffff)),
        "isatap": lambda: "fe80::5efe:%d.%d.%d.%d" % (a, b, c, d),
        "leading_zeros": lambda: "2a01:04f8:%04x:%04x:0000:0000:%04x:%04x" % (r.randint(0, 0xffff), r.randint(0, 0xffff), r.randint(0, 0xffff), r.randint(1, 0xffff)),
        "uncompressed_zeros": lambda: "2606:4700:0:0:%s:0:0:%s" % (g(), g()),
        "trailing_dcolon": lambda: "2a00:1450:%s:%s::" % (g(), g()),
        "upper": lambda: ("2A01:4F8:%s:%s::%s" % (g(), g(), g())).upper(),
    }[form]()
    return form, v


def _jwt(r, alg=None, body=None, typ="JWT"):
    alg = alg or r.choice(["RS256", "ES256", "PS256", "EdDSA", "HS512", "ES512"])
    head = {"alg": alg, "typ": typ} if typ else {"alg": alg}
    if r.random() < 0.4:
        head["kid"] = r.choice([_hx(r, 40), _s(r, B64URL, 43), "crew-%d" % r.randint(1, 9)])
    if body is None:
        iat = r.randint(1_760_000_000, 1_790_000_000)
        body = {"iss": r.choice(["https://auth.example.transit", "https://id.example.bio/realms/lab", "https://login.example.court",
                                 "https://sso.example.studio"]),
                "sub": r.choice([_uuid(r), "lab|%s" % _hx(r, 24), "rider-%d" % r.randint(1000, 99999)]),
                "aud": r.choice(["gtfs-rt", "galaxy", "ecf", "build-bot", "firmware-ota"]),
                "iat": iat, "exp": iat + r.choice([300, 900, 3600, 43200])}
    n = {"RS256": 342, "PS256": 342, "ES256": 86, "ES512": 176, "EdDSA": 86, "HS512": 86}[alg]
    return "%s.%s.%s" % (_b64u(json.dumps(head, separators=(",", ":")).encode()),
                         _b64u(json.dumps(body, separators=(",", ":")).encode()), _s(r, B64URL, n))


# Private keys, DER (heads of the real structures, then the key's bytes).
def _ec_p8(r):
    """A PKCS#8 P-256 key, as an App Store Connect `.p8` holds it."""
    return bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420") + _rb(r, 32) + \
        bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + _rb(r, 64)


def _ec_sec1(r):
    return bytes.fromhex("30770201010420") + _rb(r, 32) + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + _rb(r, 64)


def _rsa1_der(r):
    return bytes.fromhex("308204a40201000282010100") + _rb(r, 1192 - 12)


def _pem(r, kind=None):
    kind = kind if kind is not None else r.choice(["", "RSA ", "EC "])
    der = {"": _ec_p8, "RSA ": _rsa1_der, "EC ": _ec_sec1}[kind](r)
    body = _b64(der)
    lines = [body[k:k + 64] for k in range(0, len(body), 64)]
    return ["-----BEGIN %sPRIVATE KEY-----" % kind] + lines + ["-----END %sPRIVATE KEY-----" % kind], kind.strip().lower() or "pkcs8"


def _bech32(hrp, data5):
    """A bech32 string of `hrp` and 5-bit `data5` with its checksum (BIP 173)."""
    gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]

    def polymod(values):
        chk = 1
        for v in values:
            b = chk >> 25
            chk = (chk & 0x1ffffff) << 5 ^ v
            for i in range(5):
                chk ^= gen[i] if (b >> i) & 1 else 0
        return chk
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = polymod(exp + data5 + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data5 + chk)


def _to5(raw):
    acc, bits, out = 0, 0, []
    for b in raw:
        acc = acc << 8 | b
        bits += 8
        while bits >= 5:
            bits -= 5
            out.append(acc >> bits & 31)
    if bits:
        out.append(acc << (5 - bits) & 31)
    return out


def _pw(r):
    return _tok(r, r.randint(12, 22)) + r.choice(["", "", "!", "#", "%", "+", "=", "-", "_", "~"])


def _url_pw(r):
    return _tok(r, r.randint(10, 22)) + r.choice(["", "", "", "%40", "%2F", "%23", "%26", "-", "_", "~"])


# ------------------------------------------------------------ prose
#
# Short phrases written by the session, only roughly idiomatic (many of
# these languages it does not speak; the phrase is then an approximation).

PROSE = {
    "lzz": "Ma mi şk'imi {} ç'arit'i ",                      # Laz
    "sva": "ჩი ბჷ: {} ",                                      # Svan
    "zza": "Rica kena, {} rê binuse ",                       # Zaza
    "glk": "خواهش کونم، {} ره بنویسین ",                     # Gilaki
    "mzn": "خواهش کمبه، {} ره بنویسین ",                      # Mazanderani
    "brh": "مہربانی، {} اٹ نوشتہ کبو ",                       # Brahui
    "skr": "مہربانی کر تے {} تے لکھو ",                       # Saraiki
    "tcy": "ದಯದೀದ್ {} ಗ್ ಬರೆಲೆ ",                           # Tulu
    "kfa": "ದಯವಿಟ್ಟ್ {} ಕ್ ಬರಿಯಿರಿ ",                        # Kodava
    "unr": "दया कजी, {} ते ओलएपे ",                          # Mundari
    "grt": "Mesokbo, {} ona seabo ",                         # Garo
    "brx": "अननानै, {} आव लिर ",                              # Bodo
    "lbj": "ཐུགས་རྗེ་ཆེ། {} ལ་ཡི་གེ་སྐུར། ",                     # Ladakhi
    "xsr": "ཐུ་ཇི་ཆེ། {} ",                                      # Sherpa
    "new": "दयाया, {} य् च्वयादिसँ ",                            # Newar
    "mai": "कृपया {} पर लिखू ",                               # Maithili
    "bho": "किरपा क के {} पर लिखीं ",                          # Bhojpuri
    "awa": "किरपा कइके {} पै लिखौ ",                           # Awadhi
    "mag": "किरपा करके {} पर लिखहो ",                          # Magahi
    "hne": "किरपा करके {} म लिखव ",                            # Chhattisgarhi
    "mwr": "किरपा कर नै {} माथै लिखो ",                         # Marwari
    "kfr": "મહેરબાની કરે {} તે લખો ",                         # Kutchi
    "bgc": "किरपा करकै {} पै लिखो ",                           # Haryanvi
    "gbm": "किरपा कैरिक {} मा लेखा ",                           # Garhwali
    "kfy": "किरपा करि बेर {} मैं लेखौ ",                         # Kumaoni
    "gsc": "Se vos platz, escrivetz a {} ",                  # Gascon
    "izh": "Olkaa hyvät, kirjuttakkaa {} ",                  # Ingrian
    "slr": "Yaxşi ete, {} ğa yaz ",                          # Salar
    "dng": "Чин, {} шедо ",                                  # Dungan
}


def _prose(r, doc, value, cls, form_prefix, word, claimed=True):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n", claimed)


# ------------------------------------------------------------ carriers
#
# Surroundings every class is written in. Each takes a label and gives the
# text before and after the value, and how the container writes it.

def _ident(s):
    return s


def _carrier(r, label):
    form = r.choice(["fastfile", "appfile_env", "gradle_props", "godot_cfg", "unreal_ini", "platformio", "zephyr_conf", "arduino_h",
                     "tasmota", "uboot_env", "ios_xe", "vrp", "vcf_header", "sam_co", "cwl", "wdl_json", "galaxy_xml", "rmarkdown",
                     "pod", "perl_str", "doxygen", "groff", "sphinx_conf", "mdbook", "mustache", "smarty", "edifact_ftx", "marc_500",
                     "cmecf", "wgetrc", "macos_defaults", "compose", "gtfs_note"])
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    camel = "".join(w.title() if k else w for k, w in enumerate(key.split("_")))
    pascal = camel[:1].upper() + camel[1:]
    up = key.upper()
    esc = _ident
    if form == "edifact_ftx":
        esc = _edi
    elif form == "groff":
        esc = _groff
    elif form == "perl_str":
        esc = _perl
    elif form in ("platformio", "arduino_h", "zephyr_conf"):
        esc = _cstr
    elif form == "compose":
        esc = _compose
    lead, tail = {
        "fastfile": ("lane :beta do\n  slack(message: \"%s: " % label, "\", success: true)\nend\n"),
        "appfile_env": ("# fastlane/.env.default\n%s=\"" % up, "\"\n"),
        "gradle_props": ("# keystore.properties\n%s=" % camel, "\n"),
        "godot_cfg": ("[preset.0.options]\n\ncustom_template/debug=\"\"\n%s=\"" % key, "\"\n"),
        "unreal_ini": ("[/Script/CrewGame.CrewSettings]\n%s=" % pascal, "\n"),
        "platformio": ("[env:esp32dev]\nplatform = espressif32\nbuild_flags =\n    -D %s=\\\"" % up, "\\\"\n"),
        "zephyr_conf": ("CONFIG_APP_%s=\"" % up, "\"\n"),
        "arduino_h": ("// secrets.h\n#define SECRET_%s \"" % up, "\"\n"),
        "tasmota": ("Backlog0 FriendlyName1 tram-%d; WebButton1 %s; Var1 " % (r.randint(1, 99), label), "\n"),
        "uboot_env": ("=> setenv %s " % key, "\n=> saveenv\nSaving Environment to MMC... OK\n"),
        "ios_xe": ("interface GigabitEthernet1/0/%d\n description %s " % (r.randint(1, 48), label.upper()), "\n!\n"),
        "vrp": ("[~HUAWEI-GigabitEthernet0/0/%d] description %s " % (r.randint(1, 24), label), "\n"),
        "vcf_header": ("##fileformat=VCFv4.3\n##%s=\"" % camel, "\"\n"),
        "sam_co": ("@HD\tVN:1.6\tSO:coordinate\n@CO\t%s: " % label, "\n"),
        "cwl": ("cwlVersion: v1.2\nclass: CommandLineTool\ninputs:\n  %s:\n    type: string\n    default: \"" % key, "\"\n"),
        "wdl_json": ("{\n  \"Pipeline.%s\": \"" % key, "\"\n}\n"),
        "galaxy_xml": ("<tool id=\"crew_tool\" name=\"Crew\" version=\"1.0\">\n  <help>%s: " % label, "</help>\n</tool>\n"),
        "rmarkdown": ("---\ntitle: \"Run report\"\nparams:\n  %s: \"" % key, "\"\n---\n"),
        "pod": ("=head1 %s\n\n" % label.upper(), "\n\n=cut\n"),
        "perl_str": ("my $%s = \"" % key, "\";\n"),
        "doxygen": ("/**\n * @brief Gate driver.\n * @note %s: " % label, "\n */\n"),
        "groff": (".SH NOTES\n%s: \\fB" % label.title(), "\\fR\n.PP\n"),
        "sphinx_conf": ("# conf.py\nhtml_context = {\"%s\": \"" % key, "\"}\n"),
        "mdbook": ("[output.html]\n# %s\nadditional-css = []\n[preprocessor.crew]\n%s = \"" % (label, key.replace("_", "-")), "\"\n"),
        "mustache": ("{{! %s }}\n<dd>" % label, "</dd>\n"),
        "smarty": ("{* %s *}\n{assign var=\"%s\" value=\"" % (label, camel), "\"}\n"),
        "edifact_ftx": ("UNH+%d+IFTMIN:D:04A:UN'\nFTX+AAI+++" % r.randint(1, 9999), "'\n"),
        "marc_500": ("=500  \\\\$a%s: " % label.title(), ".\n"),
        "cmecf": ("NOTICE OF ELECTRONIC FILING\nThe following transaction was entered on 12/7/2026 at 4:%02d PM EST\nDocket Text:\n%s: " % (r.randint(10, 59), label.upper()), "\n"),
        "wgetrc": ("# ~/.wgetrc\n# %s\nheader = X-%s: " % (label, pascal), "\n"),
        "macos_defaults": ("$ defaults write com.example.crew %s -string \"" % pascal, "\"\n"),
        "compose": ("services:\n  gate:\n    environment:\n      %s: \"" % up, "\"\n"),
        "gtfs_note": ("feed_publisher_name,feed_publisher_url,feed_lang,feed_contact_url\nExample Transit,https://transit.example.org,fi,\"%s: " % label, "\"\n"),
    }[form]
    return form, lead, tail, esc


def _carry(r, doc, label, value, cls, form_prefix, claimed=True):
    f, lead, tail, esc = _carrier(r, label)
    _put(doc, lead, esc(value), cls, "%s_%s" % (form_prefix, f), tail, claimed)


# ------------------------------------------------------------ items

LOCALS = ["aino.virtanen", "tram-ops", "lab_seq", "kiri.tane", "dockets", "fw.builds", "moana_t", "release-bot", "k.laz", "ilse+loans",
          "gtfs.feed", "bio-core", "newa.desk", "Reception", "noc_7", "a.b"]
DOMS = ["example.transit", "lab.example.bio", "example.court", "studio.example.games", "example.firmware", "noc.example.net",
        "library.example.fi", "example.co.nz", "mail.example.app", "Example.Museum"]


def _email(r, plus=False):
    local = r.choice(LOCALS)
    if plus:
        local = r.choice(["ilse+loans", "tram+alerts", "lab+seq", "ops+noc"])
    return "%s@%s" % (local, r.choice(DOMS))


def i_email(r, doc, m):
    form = r.choice(["perl_at", "js_x40", "css_40", "rust_u40", "c_octal", "entity", "pod", "groff", "edifact_com", "appfile",
                     "sam_rg", "cwl", "galaxy", "gtfs_agency", "marc_270", "cmecf", "mdbook", "doxygen", "rfc2047", "compose",
                     "carrier", "carrier", "carrier", "prose"])
    e = _email(r, plus=form == "edifact_com")
    local, dom = e.split("@")
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        _carry(r, doc, "e-mail", e, "email", "carrier")
        return
    if form == "gtfs_agency":
        # agency.txt: the agency's phone and email in one row.
        ph, _ = _phone(r)
        _seq(doc, form, ["agency_id,agency_name,agency_url,agency_timezone,agency_lang,agency_phone,agency_email\nHSL,Example Transit,https://transit.example.org,Europe/Helsinki,fi,",
                         (ph, "phone"), ",", (e, "email"), "\n"])
        return
    if form == "marc_270":
        ph, _ = _phone(r)
        _seq(doc, form, ["=270  1\\$aKaivokatu 1$bHelsinki$e00100$k", (ph, "phone"), "$m", (e, "email"), "\n"])
        return
    if form == "cmecf":
        e2 = _email(r)
        _seq2(doc, form, ["Case Name: Tuilagi v. Example Transit\nCase Number: ", ("1:26-cv-%05d-%s" % (r.randint(1, 9999), _s(r, UP, 3)), "look:ecf_case_number"),
                         "\n1:26-cv-notice has been electronically mailed to:\n\nAino Virtanen     ", (e, "email"), ", ", (e2, "email"),
                         "\n\nElectronic document Stamp:\n[STAMP dcecfStamp_ID=%d [Date=12/7/2026] [FileNumber=%d-0] [" % (r.randint(1000000000, 1099999999), r.randint(100000, 9999999)),
                         (_hx(r, 128), "look:ecf_stamp_hash"), "]]\n"])
        return
    if form == "appfile":
        _seq2(doc, form, ["# fastlane/Appfile\napp_identifier(\"app.example.transit\")\napple_id(\"", (e, "email"), "\")\nitc_team_id(\"",
                          ("9%08d" % r.randint(0, 99999999), "look:itc_team_id"), "\")\nteam_id(\"", (_s(r, UPD, 10), "look:apple_team_id"), "\")\n"])
        return
    lead, v, tail = {
        "perl_at": ("my $to = \"", local + "\\@" + dom, "\";\n"),
        "js_x40": ("const replyTo = \"", local + "\\x40" + dom, "\";\n"),
        "css_40": (".contact::after { content: \"", local + "\\40 " + dom, "\"; }\n"),
        "rust_u40": ("const MAINTAINER: &str = \"", local + "\\u{40}" + dom, "\";\n"),
        "c_octal": ("static const char *maintainer = \"", local + "\\100" + dom, "\";\n"),
        "entity": ("<dd class=\"mail\">", local + r.choice(["&#0064;", "&#X40;", "&#x0040;"]) + dom, "</dd>\n"),
        "pod": ("=head1 AUTHOR\n\nAino Virtanen E<lt>", e, "E<gt>\n\n=cut\n"),
        "groff": (".SH \"REPORTING BUGS\"\nReport bugs to \\fB", _groff(e), "\\fR.\n"),
        "edifact_com": ("CTA+IC+:AINO VIRTANEN'\nCOM+", _edi(e), ":EM'\n"),
        "sam_rg": ("@RG\tID:L%d\tSM:NA%05d\tPL:ILLUMINA\tCN:LAB\tDS:contact " % (r.randint(1, 8), r.randint(10000, 99999)), e, "\n"),
        "cwl": ("s:author:\n  - class: s:Person\n    s:name: Aino Virtanen\n    s:email: mailto:", e, "\n"),
        "galaxy": ("<creator>\n  <person givenName=\"Aino\" familyName=\"Virtanen\" email=\"", e, "\"/>\n</creator>\n"),
        "mdbook": ("[book]\ntitle = \"Crew Handbook\"\nauthors = [\"Aino Virtanen <", e, ">\"]\n"),
        "doxygen": ("/**\n * @file gate.c\n * @author Aino Virtanen (", e, ")\n * @version 2.%d\n */\n" % r.randint(0, 9)),
        "rfc2047": ("From: =?UTF-8?Q?Aino_Virtanen_=E2=80=94_Tram?= <", e, ">\n"),
        "compose": ("      PGADMIN_DEFAULT_EMAIL: \"", e, "\"\n"),
    }[form]
    _put(doc, lead, v, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["script", "script", "script", "sep", "sep", "edifact_com", "gtfs", "marc", "groff", "adb_call", "adb_sms",
                     "dial_peer", "tasmota_sms", "zero_zero", "carrier", "carrier", "prose"])
    if form == "script":
        cc, script, lead, mk = r.choice(SCRIPT_PHONES)
        _put(doc, lead, _digits(mk(r), script), "phone", "script_%s_%s" % (script, cc), "\n")
        return
    if form == "sep":
        cc, sep, mk = r.choice(SEP_PHONES)
        _put(doc, r.choice(["Tel: ", "Phone ", "☎ "]), mk(r, sep), "phone", "sep_%s_%04x" % (cc, ord(sep)), "\n")
        return
    shown, digits = _phone(r)
    e164 = "+" + digits
    if form == "prose":
        _prose(r, doc, shown, "phone", "prose", "tel.")
        return
    if form == "carrier":
        _carry(r, doc, "phone", shown, "phone", "carrier")
        return
    if form == "zero_zero":
        # The international prefix written as 00: no plus, out of the documented scope.
        _put(doc, "Puh. ", "00 " + shown[1:], "phone", form, "\n", claimed=False)
        return
    lead, v, tail = {
        "edifact_com": ("CTA+IC+:AINO VIRTANEN'\nCOM+", _edi(shown), ":TE'\n"),
        "gtfs": ("agency_id,agency_name,agency_url,agency_timezone,agency_phone\nHSL,Example Transit,https://transit.example.org,Europe/Helsinki,", shown, "\n"),
        "marc": ("=270  1\\$aKaivokatu 1$bHelsinki$k", shown, "\n"),
        "groff": (".SH CONTACT\nCall \\fB", shown.replace(" ", "\\ "), "\\fR during office hours.\n"),
        "adb_call": ("$ adb shell am start -a android.intent.action.CALL -d tel:", e164, "\n"),
        "adb_sms": ("$ telnet localhost 5554\nOK\nsms send ", e164, " tram 7 delayed\nOK\n"),
        "dial_peer": ("dial-peer voice %d pots\n destination-pattern " % r.randint(100, 999), e164, "\n port 0/1/0\n!\n"),
        "tasmota_sms": ("Backlog SerialSend AT+CMGS=\"", e164, "\"\n"),
    }[form]
    _put(doc, lead, v, "phone", form, tail)


SSN_LANG = [
    ("vi", "Số An sinh Xã hội: ", "\n"),
    ("tl", "Numero ng Social Security: ", "\n"),
    ("ko", "사회보장번호(SSN): ", "\n"),
    ("zh", "社會安全號碼：", "\n"),
    ("ja", "社会保障番号（SSN）：", "\n"),
    ("hi", "सामाजिक सुरक्षा संख्या (SSN): ", "\n"),
    ("pa", "ਸੋਸ਼ਲ ਸਿਕਿਉਰਿਟੀ ਨੰਬਰ: ", "\n"),
    ("am", "የሶሻል ሴኩሪቲ ቁጥር: ", "\n"),
    ("so", "Lambarka Sooshal Sikyuuritiga: ", "\n"),
]

SSN_SEPS = {"hyph_bullet": "\u2043", "dbl_oblique": "\u2e17", "small_emdash": "\ufe58", "mod_minus": "\u02d7", "ogham": "\u1680",
            "emquad": "\u2001"}


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["fire_b", "air_1095", "dmf", "sep", "sep", "sansb", "lang", "lang", "lang", "perl_hash", "carrier", "carrier"])
    if form == "carrier":
        _carry(r, doc, r.choice(["SSN", "social security number"]), dashed, "us_ssn", "carrier")
        return
    if form == "lang":
        lang, lead, tail = r.choice(SSN_LANG)
        _put(doc, lead, dashed, "us_ssn", "lang_" + lang, tail)
        return
    if form == "sep":
        name = r.choice(sorted(SSN_SEPS))
        sep = SSN_SEPS[name]
        _put(doc, r.choice(["SSN ", "SSN: ", "Social Security No. "]), a + sep + g + sep + s, "us_ssn", "sep_" + name, "\n")
        return
    if form == "sansb":
        _put(doc, "𝗦𝗦𝗡: ", _digits(dashed, "sansb"), "us_ssn", form, "\n")
        return
    if form == "fire_b":
        # IRS FIRE (Publication 1220) payee record: B, year, corrected flag,
        # name control, TIN type (2 = SSN), then the nine digits.
        doc.t("T2026 ")
        doc.look("%02d%07d" % (r.randint(10, 99), r.randint(0, 9999999)), "fire_transmitter_ein")
        doc.t("%s%s\nB2026 %s2" % (" " * 7, _s(r, UPD, 5), r.choice(["TUIL", "VIRT", "KORO"])))
        doc.item(a + g + s, "us_ssn", "t_fire_b", False)
        doc.t(_plain(lambda: "%-20s%s%012d%012d\n" % ("ACCT%06d" % r.randint(0, 999999), " " * 14, r.randint(100, 999999), r.randint(100, 99999))))
        return
    if form == "dmf":
        # A Death Master File record: update code, SSN, surname, given name, dates.
        doc.t(" ")
        doc.item(a + g + s, "us_ssn", "t_dmf", False)
        doc.t(_plain(lambda: "%-20s%-4s%-15s%-15sV%02d%02d2026%02d%02d19%02d\n" % (
            r.choice(["TUILAGI", "VIRTANEN", "KOROSTELEV"]), "", r.choice(["MOANA", "AINO", "ILSE"]), "", r.randint(1, 12), r.randint(1, 28), r.randint(1, 12),
            r.randint(1, 28), r.randint(20, 60))))
        return
    if form == "perl_hash":
        _put(doc, "my %employee = (name => \"Aino\", ssn => \"", dashed, "us_ssn", form, "\");\n")
        return
    # ACA AIR 1095-C: the covered individual's SSN under its own tag.
    _seq2(doc, form, ["<irs:UniqueTransmissionId>", ("%s:SYS12:%s::T" % (_uuid(r), _s(r, UPD, 5)), "look:air_transmission_id"), "</irs:UniqueTransmissionId>\n",
                      "<CoveredIndividualGrp>\n  <CoveredIndividualName><PersonFirstNm>Aino</PersonFirstNm><PersonLastNm>Virtanen</PersonLastNm></CoveredIndividualName>\n  <irs:SSN>",
                      (a + g + s, "us_ssn"), "</irs:SSN>\n</CoveredIndividualGrp>\n"])


CARD_SCRIPTS = {"newa": "𑐎𑐵𑐬𑑂𑐜 ", "tirh": "𑒏𑒰𑒩𑓂𑒛 ", "takr": "💳 ", "modi": "💳 ", "shrd": "💳 ", "sind": "💳 ", "wara": "💳 ",
                "sora": "💳 ", "gonm": "💳 ", "gong": "💳 ", "ahom": "💳 ", "diak": "💳 ", "bhks": "💳 ", "mroo": "💳 ", "tnsa": "💳 ",
                "hmng": "💳 ", "hmnp": "💳 ", "wcho": "💳 ", "hora": "💳 ", "tail": "💳 ", "saur": "💳 ", "brah": "💳 ", "sinh": "💳 ",
                "sansb": "𝗖𝗮𝗿𝗱: "}


def i_card(r, doc, m):
    c, kind = _card(r, m)
    form = r.choice(["script", "script", "script", "sep", "sep", "sep", "emv_5a", "emv_57", "track1", "authnet", "moneris",
                     "cybersource", "carrier", "carrier", "prose"])
    if form == "script":
        script = r.choice(sorted(CARD_SCRIPTS))
        shown = _digits(r.choice([" ".join(_groups(c)), c]), script)
        _put(doc, CARD_SCRIPTS[script], shown, "credit_card", "script_%s_%s" % (script, kind), "\n")
        return
    if form == "emv_5a":
        # Tag 5A (the PAN) in a TLV dump, a byte per pair of digits; an odd length is padded with F.
        cc = c if len(c) % 2 == 0 else c + "F"
        pairs = " ".join(cc[k:k + 2] for k in range(0, len(cc), 2))
        doc.t(_plain(lambda: "9F02 06 %012d\n" % r.randint(100, 999999)) + "5A %02X " % (len(cc) // 2))
        doc.item(pairs if len(c) % 2 == 0 else pairs[:-1], "credit_card", "t_emv_5a_" + kind)
        doc.t(("F" if len(c) % 2 else "") + "\n5F24 03 %02d%02d31\n" % (r.randint(27, 31), r.randint(1, 12)))
        return
    if form == "emv_57":
        # Tag 57, track 2 equivalent data: the PAN, D, expiry, service code, discretionary data.
        doc.t("57 %02X " % ((len(c) + 1 + 4 + 3 + 8 + 1) // 2))
        doc.item(c, "credit_card", "t_emv_57_" + kind)
        doc.t(_plain(lambda: "D%02d%02d201%s%s\n" % (r.randint(27, 31), r.randint(1, 12), _d(r, 8), "F" if (len(c) + 16) % 2 else "")))
        return
    if form == "track1":
        doc.t("swipe: %B")
        doc.item(c, "credit_card", "t_track1_" + kind)
        doc.t(_plain(lambda: "^%s/%s^%02d%02d101%s?\n" % (r.choice(["VIRTANEN", "TUILAGI"]), r.choice(["AINO", "MOANA"]), r.randint(27, 31), r.randint(1, 12), _d(r, 12))))
        return
    name = r.choice(sorted(CARD_SEPS))
    shown = CARD_SEPS[name].join(_groups(c))
    if form == "sep":
        _put(doc, r.choice(["Card: ", "Kortnummer: ", "Карта: ", "Kart no: "]), shown, "credit_card", "sep_%s_%s" % (name, kind), "\n")
        return
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s_%s" % (name, kind), "card")
        return
    if form == "carrier":
        _carry(r, doc, r.choice(["card number", "card"]), r.choice([shown, c, " ".join(_groups(c))]), "credit_card", "carrier_" + kind)
        return
    lead, tail = {
        "authnet": ("<payment>\n  <creditCard>\n    <cardNumber>", "</cardNumber>\n    <expirationDate>20%02d-%02d</expirationDate>\n  </creditCard>\n</payment>\n" % (
            r.randint(27, 31), r.randint(1, 12))),
        "moneris": ("<purchase><order_id>tram-%d</order_id><amount>%d.%02d</amount><pan>" % (r.randint(1, 99999), r.randint(1, 99), r.randint(0, 99)),
                    "</pan><expdate>%02d%02d</expdate></purchase>\n" % (r.randint(27, 31), r.randint(1, 12))),
        "cybersource": ("<card>\n  <accountNumber>", "</accountNumber>\n  <expirationMonth>%02d</expirationMonth>\n</card>\n" % r.randint(1, 12)),
    }[form]
    _put(doc, lead, c, "credit_card", "%s_%s" % (form, kind), tail)


IBAN_BBAN = {"DE": "18n", "FR": "10n11c2n", "NL": "4a10n", "ES": "20n", "IT": "1a10n12c", "BE": "12n", "AT": "16n", "FI": "14n",
             "CZ": "20n", "SK": "20n", "EE": "16n", "LT": "16n", "IE": "4a14n", "PT": "21n", "NO": "11n", "DK": "14n", "MT": "4a5n18c",
             "GB": "4a14n", "HU": "24n", "RO": "4a16c", "BG": "4a6n8c", "GE": "2a16n", "AZ": "4a20c", "MD": "20c", "UA": "6n19c"}


def _bban(r, spec):
    out, num = "", ""
    for ch in spec:
        if ch.isdigit():
            num += ch
            continue
        out += _s(r, {"n": D, "a": UP, "c": UPD}[ch], int(num))
        num = ""
    return out


IBAN_LEN = {"DE": 22, "FR": 27, "NL": 18, "ES": 24, "IT": 27, "BE": 16, "AT": 20, "FI": 18, "CZ": 24, "SK": 24, "EE": 20, "LT": 20,
            "IE": 22, "PT": 25, "NO": 15, "DK": 18, "MT": 31, "GB": 22, "HU": 28, "RO": 24, "BG": 22, "GE": 22, "AZ": 28, "MD": 24, "UA": 29}


def _iban(r, countries=None):
    country = r.choice(sorted(c for c in IBAN_BBAN if countries is None or c in countries))
    i = with_check(country, _bban(r, IBAN_BBAN[country]))
    assert len(i) == IBAN_LEN[country], (country, i)
    assert mod97(i[4:] + i[:4]) == 1, i
    return i


IBAN_SEPS = {"emquad": "\u2001", "ogham": "\u1680", "one_dot": "\u2024", "dot_op": "\u22c5"}


def i_iban(r, doc, m):
    i = _iban(r)
    form = r.choice(["edifact_fii", "czech_spd", "sep", "sep", "perl", "groff", "godot", "carrier", "carrier", "carrier", "prose"])
    spaced = " ".join(i[k:k + 4] for k in range(0, len(i), 4))
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    if form == "carrier":
        _carry(r, doc, "IBAN", r.choice([i, spaced]), "iban", "carrier")
        return
    if form == "sep":
        name = r.choice(sorted(IBAN_SEPS))
        _put(doc, "IBAN: ", IBAN_SEPS[name].join(i[k:k + 4] for k in range(0, len(i), 4)), "iban", "sep_" + name, "\n")
        return
    if form == "czech_spd":
        # A Czech QR payment string: ACC is the IBAN, optionally +BIC.
        i = _iban(r, {"CZ", "SK"})
        _seq(doc, form, ["SPD*1.0*ACC:", (i, "iban"), "+%s*AM:%d.%02d*CC:CZK*X-VS:%d*MSG:JIZDNE\n" % (
            r.choice(["KOMBCZPP", "GIBACZPX", "FIOBCZPP"]), r.randint(10, 9999), r.randint(0, 99), r.randint(1000, 99999999))])
        return
    if form == "edifact_fii":
        _seq(doc, form, ["FII+BF+", (i, "iban"), ":AINO VIRTANEN+%s:25:5'\n" % r.choice(["NDEAFIHH", "OKOYFIHH", "DABAFIHH"])])
        return
    lead, v, tail = {
        "perl": ("my %payee = (name => \"Aino\", iban => '", i, "');\n"),
        "groff": (".TP\n\\fBIBAN\\fR\n", spaced.replace(" ", "\\ "), "\n"),
        "godot": ("[application]\nconfig/name=\"Tram Tycoon\"\nconfig/donation_iban=\"", spaced, "\"\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4_private(r)
    form = r.choice(["uboot", "vrp", "tasmota", "zephyr", "adb_connect", "compose_port", "ios_xe_peer", "platformio_ota", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    if form == "carrier":
        _carry(r, doc, "client ip", ip, "ipv4", "carrier")
        return
    mac = ":".join("%02x" % r.randint(0, 255) for _ in range(6))
    parts = {
        "uboot": ["=> printenv\nbaudrate=115200\nethaddr=", (mac, "look:uboot_ethaddr"), "\nipaddr=", (ip2, "ipv4"), "\nserverip=", (ip, "ipv4"),
                  "\nloadaddr=0x82000000\n"],
        "vrp": ["[~HUAWEI-GigabitEthernet0/0/%d] ip address " % r.randint(1, 24), (ip, "ipv4"), " %d\n" % r.choice([24, 28, 30])],
        "tasmota": ["Backlog IPAddress1 ", (ip2, "ipv4"), "; IPAddress2 ", (_v4_private(r), "ipv4"), "; Restart 1\n"],
        "zephyr": ["CONFIG_NET_CONFIG_MY_IPV4_ADDR=\"", (ip2, "ipv4"), "\"\nCONFIG_NET_CONFIG_PEER_IPV4_ADDR=\"", (ip, "ipv4"), "\"\n"],
        "adb_connect": ["$ adb connect ", (ip2, "ipv4"), ":5555\nconnected to ", (ip2, "ipv4"), ":5555\n"],
        "compose_port": ["    ports:\n      - \"", (ip, "ipv4"), ":8443:443\"\n"],
        "ios_xe_peer": ["router bgp 64512\n neighbor ", (ip, "ipv4"), " remote-as %d\n neighbor " % r.randint(1000, 64000), (ip, "ipv4"), " description transit\n"],
        "platformio_ota": ["[env:ota]\nupload_protocol = espota\nupload_port = ", (ip2, "ipv4"), "\n"],
    }[form]
    _seq2(doc, form, parts)


def i_ipv6(r, doc, m):
    form = r.choice(["odd", "odd", "odd", "zone", "zone_url", "unc", "uboot", "zephyr", "ios_xe", "vrp", "carrier", "prose"])
    ip = _v6(r)
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    if form == "carrier":
        _carry(r, doc, "client ip", ip, "ipv6", "carrier")
        return
    g = lambda: "%x" % r.randint(1, 0xffff)
    if form == "odd":
        name, v = _v6_odd(r)
        lead, tail = r.choice([("peer ", "\n"), ("src=", " ok\n"), ("client [", "]:443\n"), ("Address: ", "\n")])
        _put(doc, lead, v, "ipv6", "odd_" + name, tail)
        return
    if form == "zone":
        _put(doc, "$ ping6 -c 1 ", "fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6", form, "%%%s\n" % r.choice(["eth0", "wlan0", "en0"]))
        return
    if form == "zone_url":
        # RFC 6874: the zone's percent sign is written %25 in a URL.
        _put(doc, "curl -g 'http://[", "fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6", form, "%%25%s]:8080/status'\n" % r.choice(["en0", "eth1"]))
        return
    if form == "unc":
        # A Windows UNC name: the address with dashes for colons (and s for a zone).
        lit = ip.replace(":", "-")
        _put(doc, "net use Z: \\\\", lit, "ipv6", form, ".ipv6-literal.net\\builds\n")
        return
    parts = {
        # The prefix length is no part of the address.
        "uboot": ["=> setenv ip6addr ", (ip, "ipv6"), "/64\n=> setenv serverip6 ", (_v6(r), "ipv6"), "\n"],
        "zephyr": ["CONFIG_NET_CONFIG_MY_IPV6_ADDR=\"", (ip, "ipv6"), "\"\n"],
        "ios_xe": ["interface Vlan%d\n ipv6 address " % r.randint(2, 4094), (ip, "ipv6"), "/64\n ipv6 nd ra suppress all\n!\n"],
        "vrp": ["[~HUAWEI-Vlanif%d] ipv6 address " % r.randint(2, 4094), (ip, "ipv6"), " 64\n"],
    }[form]
    _seq2(doc, form, parts)


def i_private_key(r, doc, m):
    form = r.choice(["jwk_ec", "jwk_okp", "jwk_rsa", "c_array", "c_concat", "arduino_raw", "fastlane_p8", "nsec", "signify", "tor_onion",
                     "perl_heredoc", "prose"])
    if form in ("jwk_ec", "jwk_okp"):
        if form == "jwk_ec":
            head = "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"%s\",\"y\":\"%s\",\"d\":\"" % (_b64u(_rb(r, 32)), _b64u(_rb(r, 32)))
        else:
            head = "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"%s\",\"d\":\"" % _b64u(_rb(r, 32))
        _put(doc, "JWKS_PRIVATE='{\"keys\":[" + head, _b64u(_rb(r, 32)), "private_key", form, "\",\"kid\":\"%s\"}]}'\n" % _hx(r, 16))
        return
    if form == "jwk_rsa":
        # Every private member of an RSA JWK is secret; n and e are public.
        parts = ["{\"kty\": \"RSA\", \"kid\": \"crew-1\", \"n\": \"%s\", \"e\": \"AQAB\",\n" % _b64u(_rb(r, 256))]
        for name, n in (("d", 256), ("p", 128), ("q", 128), ("dp", 128), ("dq", 128), ("qi", 128)):
            parts += [" \"%s\": \"" % name, (_b64u(_rb(r, n)), "private_key"), "\"" + (",\n" if name != "qi" else "}\n")]
        _seq(doc, form, parts)
        return
    if form == "c_array":
        der = r.choice([_ec_sec1, _ec_p8])(r)
        rows = [", ".join("0x%02x" % b for b in der[k:k + 12]) for k in range(0, len(der), 12)]
        _put(doc, "static const uint8_t device_key_der[%d] = {\n    " % len(der), ",\n    ".join(rows), "private_key", form, "\n};\n")
        return
    if form == "nsec":
        _put(doc, "NOSTR_NSEC=", _bech32("nsec", _to5(_rb(r, 32))), "private_key", form, "\n")
        return
    if form == "signify":
        # signify -G: Ed, BK (bcrypt_pbkdf, here none), rounds, salt, checksum, key id, secret key.
        raw = b"EdBK" + bytes(4) + _rb(r, 16) + _rb(r, 8) + _rb(r, 8) + _rb(r, 64)
        _put(doc, "$ cat crew-release.sec\nuntrusted comment: signify secret key\n", _b64(raw), "private_key", form, "\n")
        return
    if form == "tor_onion":
        raw = b"== ed25519v1-secret: type0 ==\x00\x00\x00" + _rb(r, 64)
        _put(doc, "  hs_ed25519_secret_key: ", _b64(raw), "private_key", form, "\n  hostname: %s.onion\n" % _s(r, B32, 56))
        return
    lines, label = _pem(r, "" if form == "fastlane_p8" else None)
    if form == "c_concat":
        v = "\"\n    \"".join(line + "\\n" for line in lines)
        lead, tail = "static const char device_key_pem[] =\n    \"", "\";\n"
    elif form == "arduino_raw":
        v = "\n".join(lines)
        lead, tail = "// secrets.h\nstatic const char AWS_CERT_PRIVATE[] PROGMEM = R\"KEY(\n", "\n)KEY\";\n"
    elif form == "fastlane_p8":
        v = "\\n".join(lines)
        lead = "app_store_connect_api_key(\n  key_id: \"%s\",\n  issuer_id: \"%s\",\n  key_content: \"" % (_s(r, UPD, 10), _uuid(r))
        tail = "\",\n  in_house: false\n)\n"
    elif form == "perl_heredoc":
        v = "\n".join(lines)
        lead, tail = "my $key = <<'END_KEY';\n", "\nEND_KEY\n"
    else:
        lang = r.choice(sorted(PROSE))
        p_lead, p_tail = PROSE[lang].split("{}")
        lead, v, tail = p_lead + "key:\n", "\n".join(lines), "\n" + p_tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, label), tail)


def _provider(r):
    """A provider token no family wrote, in its own place: (name, parts) where
    a part is text, or (value, class), or (value, "look:kind")."""
    name = r.choice(["mapbox", "hubspot", "plaid", "trello", "opsgenie", "intercom", "datadog", "grafana_legacy", "sumo", "mailchimp",
                     "langsmith_legacy", "ncbi", "bitwarden_sm", "infisical", "azure_devops", "asana", "godot", "eos", "tgram"])
    if name == "mapbox":
        user = r.choice(["crew", "tramviz", "labmaps"])
        pk = "pk." + _b64u(json.dumps({"u": user, "a": _s(r, LOWD, 25)}, separators=(",", ":")).encode()) + "." + _s(r, B64URL, 22)
        sk = "sk." + _b64u(json.dumps({"u": user, "a": _s(r, LOWD, 25)}, separators=(",", ":")).encode()) + "." + _s(r, B64URL, 22)
        return name, ["MAPBOX_PUBLIC_TOKEN=", (pk, "look:mapbox_public_token"), "\nMAPBOX_DOWNLOADS_TOKEN=", (sk, "api_key"), "\n"]
    if name == "plaid":
        return name, ["PLAID_CLIENT_ID=", (_hx(r, 24), "look:plaid_client_id"), "\nPLAID_SECRET=", (_hx(r, 30), "api_key"),
                      "\nPLAID_ACCESS_TOKEN=", ("access-%s-%s" % (r.choice(["sandbox", "production"]), _uuid(r)), "api_key"), "\n"]
    if name == "trello":
        return name, ["curl 'https://api.trello.example.com/1/members/me/boards?key=", (_hx(r, 32), "look:trello_api_key"), "&token=",
                      ("ATTA" + _hx(r, 64) + _hx(r, 8, upper=True), "api_key"), "'\n"]
    if name == "datadog":
        return name, ["curl -X GET 'https://api.datadoghq.example/api/v1/validate' -H 'DD-API-KEY: ", (_hx(r, 32), "api_key"),
                      "' -H 'DD-APPLICATION-KEY: ", (_hx(r, 40), "api_key"), "'\n"]
    if name == "sumo":
        return name, ["SUMO_ACCESS_ID=", ("su" + _s(r, AN, 12), "api_key"), "\nSUMO_ACCESS_KEY=", (_s(r, AN, 64), "api_key"), "\n"]
    if name == "eos":
        # Epic Online Services: the client secret and encryption key are secret; the ids are not.
        return name, ["[/Script/OnlineSubsystemEOS.EOSSettings]\n+Artifacts=(ArtifactName=\"TramTycoon\",ClientId=\"", ("xyza7891" + _s(r, AN, 24), "look:eos_client_id"),
                      "\",ClientSecret=\"", (_s(r, AN + "+/", 43), "api_key"), "\",ProductId=\"", (_hx(r, 32), "look:eos_product_id"),
                      "\",SandboxId=\"", (_hx(r, 32), "look:eos_sandbox_id"), "\",DeploymentId=\"", (_hx(r, 32), "look:eos_deployment_id"),
                      "\",EncryptionKey=\"", (_hx(r, 64, upper=True), "api_key"), "\")\n"]
    if name == "godot":
        return name, ["[preset.0]\n\nname=\"Android\"\nplatform=\"Android\"\nscript_export_mode=2\nscript_encryption_key=\"", (_hx(r, 64), "api_key"),
                      "\"\n\n[preset.0.options]\n\nkeystore/release_user=\"upload\"\nkeystore/release_password=\"", (_pw(r), "api_key"), "\"\n"]
    if name == "tgram":
        tok = "%d:AA%s" % (r.randint(1000000000, 7999999999), _s(r, AN + "_-", 33))
        return name, ["APPRISE_URLS=tgram://", (tok, "api_key"), _plain(lambda: "/-100%d\n" % r.randint(1000000000, 9999999999))]
    if name == "bitwarden_sm":
        return name, ["BWS_ACCESS_TOKEN=", ("0.%s.%s:%s" % (_uuid(r), _s(r, AN, 30), _b64(_rb(r, 16))), "api_key"), "\n"]
    lead, tok, tail = {
        "hubspot": ("Authorization: Bearer ", "pat-%s-%s" % (r.choice(["na1", "eu1", "na2"]), _uuid(r)), "\n"),
        "opsgenie": ("Authorization: GenieKey ", _uuid(r), "\n"),
        "intercom": ("INTERCOM_ACCESS_TOKEN=", _b64(("tok:%s:1:0" % _uuid(r)).encode()), "\n"),
        "grafana_legacy": ("Authorization: Bearer ", _b64(json.dumps({"k": _s(r, AN, 32), "n": "crew-ci", "id": r.randint(1, 99)}, separators=(",", ":")).encode()), "\n"),
        "mailchimp": ("MAILCHIMP_API_KEY=", _hx(r, 32) + "-us%d" % r.randint(1, 21), "\n"),
        "langsmith_legacy": ("LANGCHAIN_API_KEY=", "ls__" + _hx(r, 32), "\n"),
        "ncbi": ("$ esearch -db nucleotide -query \"BRCA1\" -api_key ", _hx(r, 36), "\n"),
        "infisical": ("INFISICAL_TOKEN=", "st.%s.%s.%s" % (_uuid(r), _hx(r, 32), _hx(r, 32)), "\n"),
        "azure_devops": ("AZURE_DEVOPS_EXT_PAT=", _s(r, AN, 52) + "JQQJ99" + _s(r, AN, 18) + "AZDO" + _s(r, AN, 4), "\n"),
        "asana": ("Authorization: Bearer ", "2/%d/%d:%s" % (r.randint(10 ** 15, 10 ** 16 - 1), r.randint(10 ** 15, 10 ** 16 - 1), _hx(r, 32)), "\n"),
    }[name]
    return name, [lead, (tok, "api_key"), tail]


def i_api_key(r, doc, m):
    pw = _pw(r)
    form = r.choice(["matchfile", "fastlane_session", "gradle_keystore", "platformio", "zephyr", "arduino", "tasmota", "ios_xe_user",
                     "ios_xe_snmp", "ios_xe_tacacs", "vrp_user", "sphinx_linkcheck", "cwl_secret", "wgetrc", "macos_security",
                     "macos_defaults", "perl_pw", "compose_dollar", "galaxy", "provider", "provider", "provider", "provider", "provider",
                     "provider", "provider", "provider", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    if form == "provider":
        while True:
            name, parts = _provider(r)
            if not any(isinstance(p, tuple) and p[1].startswith("look:") and _cardish(p[0]) for p in parts):
                break
        _seq2(doc, "provider_" + name, parts)
        return
    if form == "matchfile":
        # match's basic auth is base64 of user:token.
        tok = _b64(("crew:" + _tok(r, 36)).encode())
        _seq(doc, form, ["# fastlane/Matchfile\ngit_url(\"https://git.example.app/crew/certificates.git\")\ngit_basic_authorization(\"", (tok, "api_key"),
                         "\")\nstorage_mode(\"git\")\n"])
        return
    if form == "fastlane_session":
        # FASTLANE_SESSION holds a YAML dump of Ruby cookie objects; the cookie's value is the secret.
        _seq(doc, form, ["FASTLANE_SESSION='---\\n- !ruby/object:HTTP::Cookie\\n  name: myacinfo\\n  value: ", ("DAWTKN" + _hx(r, 120) + "SRVX", "api_key"),
                         "\\n  domain: apple.com\\n  for_domain: true\\n  path: \"/\"\\n'\n"])
        return
    if form == "gradle_keystore":
        _seq(doc, form, ["storeFile=../upload.jks\nstorePassword=", (pw, "api_key"), "\nkeyAlias=upload\nkeyPassword=", (_pw(r), "api_key"), "\n"])
        return
    if form == "galaxy":
        e = _email(r)
        _seq(doc, form, ["galaxy:\n  admin_users: ", (e, "email"), "\n  id_secret: ", (_hx(r, 32), "api_key"), "\n"])
        return
    if form == "ios_xe_tacacs":
        _seq(doc, form, ["tacacs server ISE\n address ipv4 ", (_v4_private(r), "ipv4"), "\n key 0 ", (pw, "api_key"), "\n!\n"])
        return
    if form == "macos_security":
        e = _email(r)
        _seq(doc, form, ["$ security add-generic-password -a ", (e, "email"), " -s gate-api -w ", (_tok(r, 32), "api_key"), " -U\n"])
        return
    lead, v, tail = {
        "platformio": ("[env:esp32dev]\nbuild_flags =\n    -D WIFI_SSID=\\\"tram-depot\\\"\n    -D WIFI_PASS=\\\"", _cstr(pw), "\\\"\n"),
        "zephyr": ("CONFIG_WIFI_CREDENTIALS_STATIC=y\nCONFIG_WIFI_CREDENTIALS_STATIC_SSID=\"tram-depot\"\nCONFIG_WIFI_CREDENTIALS_STATIC_PASSWORD=\"", _cstr(pw), "\"\n"),
        "arduino": ("// arduino_secrets.h\n#define SECRET_SSID \"tram-depot\"\n#define SECRET_OPTIONAL_PASS \"", _cstr(pw), "\"\n"),
        "tasmota": ("Backlog SSID1 tram-depot; Password1 ", pw.replace(";", ""), "; MqttHost mqtt.example.transit\n"),
        "ios_xe_user": ("username netops privilege 15 secret 0 ", pw, "\n"),
        "ios_xe_snmp": ("snmp-server community ", _tok(r, 16), " RO 10\n"),
        "vrp_user": ("[~HUAWEI-aaa] local-user netops password irreversible-cipher ", pw, "\n"),
        "sphinx_linkcheck": ("linkcheck_auth = [\n    (r\"https://wiki\\.example\\.transit/.*\", (\"crew\", \"", pw.replace("\"", ""), "\")),\n]\n"),
        "cwl_secret": ("hints:\n  cwltool:Secrets:\n    secrets: [api_token]\n# job.yml\napi_token: ", _tok(r, 40), "\n"),
        "wgetrc": ("# ~/.wgetrc\nuser = crew\npassword = ", pw, "\n"),
        "macos_defaults": ("$ defaults write com.example.tram ApiToken -string \"", _tok(r, 40), "\"\n"),
        "perl_pw": ("my $db_pass = \"", _perl(_tok(r, 8) + r.choice(["@", "$"]) + _tok(r, 8)), "\";\n"),
        "compose_dollar": ("    environment:\n      POSTGRES_PASSWORD: \"", _compose(_tok(r, 8) + "$" + _tok(r, 8)), "\"\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["fastlane_asc", "godot_http", "cwl_env", "sam_ds", "tasmota_mqtt", "edifact_ftx", "galaxy_api", "perl_header",
                     "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, _jwt(r), "jwt", "prose", "token")
        return
    if form == "carrier":
        _carry(r, doc, "session token", _jwt(r), "jwt", "carrier")
        return
    if form == "fastlane_asc":
        iat = r.randint(1_760_000_000, 1_790_000_000)
        tok = _jwt(r, alg="ES256", body={"iss": _uuid(r), "iat": iat, "exp": iat + 1200, "aud": "appstoreconnect-v1"})
        _put(doc, "[14:%02d:%02d]: Using App Store Connect API token " % (r.randint(0, 59), r.randint(0, 59)), tok, "jwt", form, "\n")
        return
    if form == "edifact_ftx":
        _put(doc, "FTX+AAI+++", _edi(_jwt(r, alg="HS512")), "jwt", form, "'\n")
        return
    lead, tail = {
        "godot_http": ("var headers = [\"Authorization: Bearer ", "\", \"Content-Type: application/json\"]\n"),
        "cwl_env": ("requirements:\n  EnvVarRequirement:\n    envDef:\n      GALAXY_TOKEN: \"", "\"\n"),
        "sam_ds": ("@PG\tID:bwa\tPN:bwa\tVN:0.7.18\tCL:bwa mem -H upload_token=", " ref.fa r1.fq\n"),
        "tasmota_mqtt": ("Backlog MqttUser unused; MqttPassword ", "; MqttClient tram-%d\n" % r.randint(1, 99)),
        "galaxy_api": ("$ planemo upload --galaxy_url https://usegalaxy.example.bio --galaxy_user_key ", "\n"),
        "perl_header": ("$ua->default_header('Authorization' => \"Bearer ", "\");\n"),
    }[form]
    _put(doc, lead, _jwt(r), "jwt", form, tail)


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["mailtos", "ntfys", "matrixs", "rockets", "impala", "solr", "doris", "risingwave", "clickhouses", "zk", "rtmps",
                     "smtps", "s3", "srt", "steam", "compose_dollar", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "ntfys://crew:", pw, "url_credentials", "prose_" + lang, "@ntfy.example.transit/tram-7 " + tail + "\n")
        return
    if form == "s3":
        # duplicity's old S3 URL: the key id is the user, the secret the password.
        kid = "AKIA" + _s(r, UP + "234567", 16)
        sec = _tok(r, 40, AN + "/+")
        _seq(doc, form, ["duplicity /srv/galaxy s3://", (kid, "api_key"), ":", (urllib.parse.quote(sec, safe=""), "url_credentials"), "@s3.example.bio/crew-backups\n"])
        return
    if form == "srt":
        # SRT carries its passphrase in the query.
        _put(doc, "ffmpeg -re -i tram7.ts -c copy -f mpegts 'srt://ingest.example.studio:9000?mode=caller&pbkeylen=16&passphrase=", pw, "url_credentials", form,
             "&latency=200000'\n")
        return
    if form == "steam":
        # A game server's password is the last part of the path.
        _seq(doc, form, ["steam://connect/", (_v4(r), "ipv4"), ":27015/", (_tok(r, 12), "url_credentials"), "\n"])
        return
    if form == "smtps":
        # The user is an email, percent-encoded.
        _seq(doc, form, ["EMAIL_URL=smtps://", ("tram%40example.transit", "email"), ":", (pw, "url_credentials"), "@smtp.example.transit:465\n"])
        return
    if form == "mailtos":
        _seq(doc, form, ["APPRISE_URLS=mailtos://crew:", (pw, "url_credentials"), "@example.transit?smtp=smtp.example.transit&from=", ("tram@example.transit", "email"), "\n"])
        return
    if form == "compose_dollar":
        p = _tok(r, 8) + "$" + _tok(r, 8)
        _put(doc, "      DATABASE_URL: \"risingwave://root:", _compose(p), "url_credentials", form, "@risingwave:4566/dev\"\n")
        return
    lead, tail = {
        "ntfys": ("apprise -b 'tram 7 delayed' 'ntfys://crew:", "@ntfy.example.transit/tram-7'\n"),
        "matrixs": ("notify:\n  - matrixs://crew:", "@matrix.example.transit/#ops\n"),
        "rockets": ("  - rockets://crew:", "@chat.example.transit/#depot\n"),
        "impala": ("engine = create_engine(\"impala://crew:", "@impala.example.bio:21050/default\")\n"),
        "solr": ("engine = create_engine(\"solr://crew:", "@solr.example.court:8983/solr/dockets\")\n"),
        "doris": ("engine = create_engine(\"doris://root:", "@fe.example.transit:9030/gtfs\")\n"),
        "risingwave": ("engine = create_engine(\"risingwave://root:", "@rw.example.transit:4566/dev\")\n"),
        "clickhouses": ("client = Client.from_url(\"clickhouses://crew:", "@ch.example.bio:9440/reads\")\n"),
        "zk": ("--master=zk://mesos:", "@zk1.example.net:2181,zk2.example.net:2181/mesos\n"),
        "rtmps": ("stream_url = \"rtmps://crew:", "@live.example.studio:443/app/tram7\"\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _container_no(r):
    """An ISO 6346 container number with its check digit."""
    owner = r.choice(["MSC", "MAE", "CMA", "HLX", "TGH"]) + "U"
    serial = _d(r, 6)
    vals = {}
    v = 10
    for ch in UP:
        if v % 11 == 0:
            v += 1
        vals[ch] = v
        v += 1
    total = sum((vals[c] if c.isalpha() else int(c)) * (2 ** k) for k, c in enumerate(owner + serial))
    return owner + serial + str(total % 11 % 10)


def i_look(r, doc, m):
    q = r.randint
    hx = lambda n: _hx(r, n)
    kind = r.choice([
        # Genomics.
        "genome_coord", "dbsnp", "ensembl", "illumina_read", "vcf_pos", "refseq_hgvs",
        # Libraries.
        "marc_control", "lccn", "call_number_lc", "dewey",
        # Transit and logistics.
        "gtfs_stop", "gtfs_color", "gtfs_time", "container_no", "taric", "unlocode", "edifact_unb",
        # Tax and courts.
        "ein", "fire_tcc", "air_receipt", "ecf_case",
        # Network gear.
        "cisco_type9", "cisco_mac", "confreg", "route_distinguisher", "huawei_esn", "ios_version",
        # Firmware.
        "esp32_mac", "partition_csv", "ble_uuid", "build_id", "flash_addr",
        # Mobile and games.
        "apple_team_id", "cert_fingerprint", "firebase_app_id", "android_version_code", "godot_uid", "unreal_project_id",
        "steam_app_id",
        # Places and docs.
        "what3words", "perl_version", "man_th",
    ])
    lead, make, tail = {
        "genome_coord": ("Region: ", lambda: "chr%d:%s-%s" % (q(1, 22), format(q(1_000_000, 99_000_000), ","), format(q(100_000_000, 199_000_000), ",")), "\n"),
        "dbsnp": ("variant ", lambda: "rs%d" % q(10 ** 6, 10 ** 10), "\n"),
        "ensembl": ("gene_id \"", lambda: "ENSG%011d.%d" % (q(0, 99999999999), q(1, 20)), "\";\n"),
        "illumina_read": ("@", lambda: "A%05d:%d:H%sDSX%d:%d:%d:%d:%d" % (q(100, 99999), q(1, 999), _s(r, UPD, 4), q(2, 5), q(1, 4), q(1101, 2678), q(1000, 32000), q(1000, 37000)),
                          " 1:N:0:%s+%s\n" % (_s(r, "ACGT", 8), _s(r, "ACGT", 8))),
        "vcf_pos": ("chr%d\t" % q(1, 22), lambda: "%d\t.\t%s\t%s\t%d" % (q(10_000, 240_000_000), r.choice("ACGT"), r.choice("ACGT"), q(10, 99)), "\tPASS\tDP=%d\n" % q(5, 400)),
        "refseq_hgvs": ("", lambda: "NM_%06d.%d:c.%d%s>%s" % (q(1, 999999), q(1, 9), q(1, 9999), r.choice("ACGT"), r.choice("ACGT")), "\n"),
        "marc_control": ("=001  ", lambda: "ocm%08d" % q(0, 99999999), "\n=035  \\\\$a(OCoLC)%d\n" % q(10 ** 6, 10 ** 9)),
        "lccn": ("=010  \\\\$a  ", lambda: "%d%06d" % (q(2000, 2026), q(0, 999999)), "\n"),
        "call_number_lc": ("=050  00$a", lambda: "QA%d.%d.%s%d $b.%s%d %d" % (q(1, 99), q(1, 99), r.choice(UP), q(1, 99), r.choice(UP), q(1, 99), q(1990, 2026)), "\n"),
        "dewey": ("=082  04$a", lambda: "%03d.%d" % (q(0, 999), q(1, 9999)), "$223\n"),
        "gtfs_stop": ("stop_id,stop_name,stop_lat,stop_lon\n%d,Rautatientori," % q(1000000, 1999999), lambda: "%d.%06d,%d.%06d" % (q(59, 61), q(0, 999999), q(22, 26), q(0, 999999)), "\n"),
        "gtfs_color": ("route_id,route_short_name,route_color,route_text_color\n%d,%d," % (q(1000, 9999), q(1, 15)), lambda: "%s,FFFFFF" % _hx(r, 6, upper=True), "\n"),
        "gtfs_time": ("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n%d_%d," % (q(1000, 9999), q(10000, 99999)), lambda: "%02d:%02d:00,%02d:%02d:30" % (q(24, 27), q(0, 59), q(24, 27), q(0, 59)),
                      ",%d,%d\n" % (q(1000000, 1999999), q(1, 40))),
        "container_no": ("EQD+CN+", lambda: _container_no(r), "+22G1:102:5+2'\n"),
        "taric": ("Commodity code: ", lambda: "%04d.%02d.%02d.%02d" % (q(1000, 9999), q(10, 99), q(0, 99), q(0, 99)), "\n"),
        "unlocode": ("LOC+9+", lambda: r.choice(["FIHEL", "DEHAM", "NLRTM", "SGSIN", "CNSHA"]) + ":139:6'", "\n"),
        "edifact_unb": ("UNB+UNOC:3+", lambda: "%d:14+%d:14+%02d%02d%02d:%02d%02d+%d" % (q(10 ** 12, 10 ** 13 - 1), q(10 ** 12, 10 ** 13 - 1), q(24, 26), q(1, 12), q(1, 28), q(0, 23), q(0, 59), q(1, 99999)), "'\n"),
        "ein": ("Employer identification number (EIN): ", lambda: "%02d-%07d" % (r.choice([10, 20, 27, 35, 46, 52, 61, 74, 83, 94]), q(0, 9999999)), "\n"),
        "fire_tcc": ("Transmitter Control Code: ", lambda: "%d%s%d%s%d" % (q(1, 9), r.choice(UP), q(0, 9), r.choice(UP), q(0, 9)), "\n"),
        "air_receipt": ("<ReceiptId>", lambda: "1095C-%02d-%08d" % (q(24, 26), q(0, 99999999)), "</ReceiptId>\n"),
        "ecf_case": ("Case: ", lambda: "%d:%02d-%s-%05d-%s" % (q(1, 4), q(24, 26), r.choice(["cv", "cr", "bk", "mc"]), q(1, 9999), _s(r, UP, 3)), "\n"),
        "cisco_type9": ("enable secret 9 ", lambda: "$9$%s$%s" % (_s(r, AN + "./", 14), _s(r, AN + "./", 43)), "\n"),
        "cisco_mac": ("  Vlan%d    " % q(2, 4094), lambda: "%s.%s.%s" % (hx(4), hx(4), hx(4)), "    DYNAMIC     Gi1/0/%d\n" % q(1, 48)),
        "confreg": ("config-register ", lambda: "0x%04X" % r.choice([0x2102, 0x2142, 0x2101]), "\n"),
        "route_distinguisher": (" rd ", lambda: "%d:%d" % (q(64512, 65534), q(1, 9999)), "\n route-target both %d:%d\n" % (q(64512, 65534), q(1, 9999))),
        "huawei_esn": ("ESN of slot 0: ", lambda: "2102%d%s%d" % (q(100000, 999999), _s(r, UPD, 4), q(100000, 999999)), "\n"),
        "ios_version": ("Cisco IOS XE Software, Version ", lambda: "%d.%d.%d%s" % (q(16, 17), q(1, 15), q(1, 9), r.choice(["", "a", "b"])), "\n"),
        "esp32_mac": ("I (%d) wifi:mode : sta (" % q(100, 999), lambda: "%s:%s:%s:%s" % (r.choice(["24:0a:c4", "30:ae:a4", "7c:9e:bd"]), hx(2), hx(2), hx(2)), ")\n"),
        "partition_csv": ("# Name,   Type, SubType, Offset,  Size\nnvs,      data, nvs,     ", lambda: "0x%x,  0x%x" % (r.choice([0x9000, 0xd000]), r.choice([0x4000, 0x6000])), ",\n"),
        "ble_uuid": ("characteristic ", lambda: "0000%s-0000-1000-8000-00805f9b34fb" % r.choice(["2a37", "2a19", "180d", "2a6e"]), "\n"),
        "build_id": ("Build ID: ", lambda: hx(40), "\n"),
        "flash_addr": ("esptool.py write_flash ", lambda: "0x%x firmware.bin" % r.choice([0x10000, 0x1000, 0x8000]), "\n"),
        "apple_team_id": ("DEVELOPMENT_TEAM = ", lambda: _s(r, UPD, 10), ";\n"),
        "cert_fingerprint": ("SHA1: ", lambda: ":".join(hx(2).upper() for _ in range(20)), "\n"),
        "firebase_app_id": ("\"mobilesdk_app_id\": \"", lambda: "1:%d:android:%s" % (q(10 ** 11, 10 ** 12 - 1), hx(16)), "\",\n"),
        "android_version_code": ("versionCode ", lambda: "%d%02d%02d%02d" % (q(2024, 2026), q(1, 12), q(1, 28), q(0, 99)), "\n"),
        "godot_uid": ("[gd_scene load_steps=3 format=3 uid=\"", lambda: "uid://" + _s(r, LOWD, 13), "\"]\n"),
        "unreal_project_id": ("[/Script/EngineSettings.GeneralProjectSettings]\nProjectID=", lambda: hx(32).upper(), "\n"),
        "steam_app_id": ("[OnlineSubsystemSteam]\nbEnabled=true\nSteamDevAppId=", lambda: str(r.choice([480, q(100000, 3000000)])), "\n"),
        "what3words": ("Depot entrance: ", lambda: "///%s.%s.%s" % (r.choice(["index", "filled", "tram"]), r.choice(["home", "rails", "quiet"]), r.choice(["raft", "lamp", "snow"])), "\n"),
        "perl_version": ("our $VERSION = '", lambda: "%d.%06d" % (q(0, 9), q(0, 999999)), "';\n"),
        "man_th": (".TH TRAMCTL 1 \"", lambda: "2026-%02d-%02d\" \"tramctl %d.%d.%d" % (q(1, 12), q(1, 28), q(1, 9), q(0, 30), q(0, 20)), "\"\n"),
    }[kind]
    doc.t(lead)
    _look(r, doc, make, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt, i_private_key, i_url]

FILLERS = ["\n", "\n\n", "UNT+12+1'\n", "!\n", "=cut\n", "---\n", "@@ end @@\n", ".PP\n"]


def heldout21_doc(r, doc, m):
    """One text of the twenty-second family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
