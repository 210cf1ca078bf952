"""The twenty-third held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout23`; not run on its own.

A twenty-fourth template family, written and committed before any
detector change of the round that tunes on heldout22, from real-world
formats and not from the detectors' code: the session that wrote it did
not read the detectors (`crates/tracegate/src/redact`, `finding*`),
their documentation, the detection sections of benches/README.md or any
split's report or spans; it read `detect_corpus.py`, `detect_values.py`,
`detect_score.py` (how a span is scored) and `detect_heldout22.py` for
the interface, and grepped the twenty-two earlier families only for
surroundings, value shapes, separators, digit scripts, provider
prefixes, URL schemes, key containers and languages to keep clear of.
Only its summary and per-class table are looked at until the round's
final measurement.

Surroundings that no other family writes, most from GNSS survey rigs, 3D
printers and maker benches, interactive fiction and small games, voice
applications, e-books, science data files, learning platforms and
unattended OS installs: RTKLIB configurations and `str2str` commands
(NTRIP strings with and without a scheme), crystallographic CIF text
fields, GPX waypoint descriptions, EPUB OPF metadata, FictionBook
`custom-info`, SSML (`say-as`, `break` between a number's groups),
VoiceXML variables (a JavaScript string in an XML attribute), Rasa
responses, Moodle backup config, Fountain screenplay title pages,
Flutter ARB files, PrusaSlicer G-code footers, Klipper macros (`RESPOND
MSG=`), Ren'Py defines (`[[` and `{{`), Ink `VAR`s, Harlowe `(set:)`,
KiCad schematic properties, Blender `bpy` scene properties,
CircuitPython `settings.toml`, BitBake `local.conf`, `autounattend.xml`,
iPXE scripts, Cabrillo contest logs, python-escpos receipts, OpenSCAD
strings; Aegis and andOTP backups, Azure storage connection strings,
Cardano `.skey` files, `subkey` output, Sui keystores, NEAR credentials,
Aptos profiles, Nix binary-cache keys, Monero wallet output, private
JWKs, cosign keys, paperkey text; prose in Meänkieli, Tsakonian, Griko,
Arbëresh, Arvanitika, Pontic Greek, Cypriot Greek, Megleno-Romanian,
Istro-Romanian, Amami, Miyako, Yaeyama, Yonaguni, Hachijō, Evenki,
Nivkh, Itelmen, Lushootseed, Hopi, Tohono Oʼodham, Yaqui, Totonac,
Huastec, Qʼeqchiʼ, Guna and Emberá (short phrases written by the
session, only roughly idiomatic; in most of these languages only
approximations), with context words for phones and SSNs in Chinese,
Korean, Hebrew, Persian and Arabic scripts.

Values in shapes the earlier families did not write as such a set: cards
of Argencard, Codensa, Olímpica, Forbrugsforeningen, Diners Club (14
digits, 4-6-4), UATP (15, 4-5-6), Maestro (12 and 19), Verve (19),
UnionPay (19) and Mir beside the common brands, written in styled digits
that are no decimal digits (keycap emoji, circled, negative circled,
superscript, subscript, digits under a combining low line or in a
combining enclosing circle), between bidi isolates or with an Arabic
letter mark between groups, grouped by a wavy dash, an ideographic or
halfwidth full stop, a ratio sign, an Armenian full stop, an Ethiopic
wordspace, a small full stop, a big solidus, a superscript minus, a
Hangul filler, a Braille blank, a Mongolian vowel separator or a Khmer
inherent vowel, or by an escape of the container no family wrote (Pascal
`'#32'`, VBA `" & Chr(32) & "`, Excel `"&CHAR(160)&"`, SQL `' || CHR(32)
|| '`, YAML `\\_`, ES6 `\\u{a0}`, Perl `\\x{a0}`, CSS `\\a0 `, RTF `\\~`
and `\\'a0`, URL `%C2%A0`, quoted-printable `=C2=A0`, Haskell
`\\160\\&`, Mermaid `#160;`, SSML `<break/>`), and split by the
container's own continuation (Python and C adjacent literals, Java `+`,
a folded YAML plain scalar, Fortran `&`, VBA `& _`); phones of Israel,
the Emirates, Iran, Pakistan, Egypt, China, Hong Kong, Taiwan, Korea,
Macau, Greenland, the Faroes, Gibraltar, Andorra, Monaco, San Marino,
Liechtenstein, Bhutan, the Maldives, Brunei, Timor-Leste, Cape Verde and
the Seychelles in those digits and separators, as SSML `telephone`,
VoiceXML transfers and national numbers after context words in their own
scripts; SSNs the same, and letter-spaced as pdftotext writes a comb
field; IBANs of Greenland, Gibraltar, El Salvador, Timor-Leste, Saint
Lucia, the British Virgin Islands, Qatar, Monaco, Liechtenstein,
Montenegro, Andorra, Yemen, Guatemala, Jordan, Kuwait and Israel, in
lower case, wrapped over two lines, in the new separators and escapes;
provider tokens no family wrote (Weights & Biases, unkey, Liveblocks,
Trigger.dev, HubSpot private-app, Modal token id and secret, Deno
Deploy, Zuplo, Tigris, Checkly, Rootly, FireHydrant, Cal.com, Ghost
Admin, Tinybird, Todoist, Readwise, Webflow, Azure storage account keys,
TOTP seeds in Aegis, andOTP and `otpauth-migration` exports); private
keys as Cardano signing keys (CBOR hex), Substrate secret seeds, Sui
`suiprivkey` and keystore entries, NEAR `ed25519:` keys, Aptos keys (hex
and AIP-80 `ed25519-priv-`), Nix cache signing keys, Monero spend and
view keys, JWK `d` members, cosign encrypted keys, paperkey text, and
PEMs as C adjacent literals, Pascal `#13#10` concatenations and VBA
`vbLf` concatenations; JWTs in LTI 1.3 launch forms, VoiceXML, Ren'Py,
Rasa endpoints and Moonraker requests, and split at their dots over
adjacent literals; IPv4 defanged as `(.)`, `{.}` and `[dot]`, with
ideographic full stops, in dotted hex, in RTKLIB, iPXE,
`autounattend.xml`, MicroPython and escpos; IPv6 in upper case, with
every zero written, with a zone (also `%25`), ISATAP, 6to4 and Teredo
forms, in RTKLIB and iPXE; URLs with a password for `ntrip` (also
without a scheme, as RTKLIB writes it), `svn`, `db2+ibm_db`,
`teradatasql`, `iax2`, git remotes in Moonraker and iPXE `chain`, with
percent-encoded UTF-8 in the password.

Look-alikes no family wrote as such a set: RINEX header lines, ECEF
coordinates, CIF cell lengths, CCDC numbers, ORCIDs and ISNIs (sixteen
digits in fours, drawn so that no run passes Luhn), CAS numbers,
InChIKeys, rsids, EPUB CFIs, KiCad UUIDs and footprints, Klipper serial
paths, G-code moves, Intel HEX and S-records, DTMF strings, NTRIP
source-table lines, latitude and longitude, LTI OAuth signatures and
nonces, Windows generic (public) KMS client keys, Cardano verification
keys and addresses, SS58 addresses, Sui addresses, Aptos account
addresses, Nix cache public keys, JWK public members, Substrate public
keys, bcrypt and yescrypt hashes, well-known Windows SIDs, DMR ids,
Maidenhead locators, Moodle course URLs, SSML prosody values, Ink
diverts, Ren'Py SDK paths, IPv6 reverse-DNS names, MAC addresses,
version strings with build metadata, masked SSNs and cards, IBANs with a
wrong check, and URLs with placeholders or a user and no password. A
look-alike any run of whose digits (solid, or any run of groups split by
one space, dash, dot or slash) of 12 to 19 digits passes Luhn is drawn
again (heldout20's check, copied here with its helpers from heldout22).

It reuses only the Luhn digit of `detect_corpus.py` and the small value
makers of `detect_values.py`. Its texts are drawn from their own seed
(`detect_corpus.py` offsets the split's seed by 23023). It is the
project's own, like the others.
"""
import base64
import hashlib
import json

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, with_check, family_doc

LOWD = LOW + D
UPD = UP + D
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _rb(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64(raw):
    return base64.b64encode(raw).decode()


def _b64u(raw):
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _b58(raw):
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, k = divmod(n, 58)
        out = B58[k] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _bech32_polymod(values):
    gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1ffffff) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((b >> i) & 1) else 0
    return chk


def _bech32(hrp, raw):
    """BIP-173 bech32 of `raw` (8-bit groups regrouped to 5) under `hrp`."""
    acc, bits, data = 0, 0, []
    for b in raw:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    exp = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    pm = _bech32_polymod(exp + data + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in data + chk)


def _ss58(pub, prefix=42):
    data = bytes([prefix]) + pub
    chk = hashlib.blake2b(b"SS58PRE" + data, digest_size=64).digest()[:2]
    return _b58(data + chk)


# ------------------------------------------------------------ checks
# heldout20's card check for look-alikes, copied (by way of heldout22) so
# the family stands alone.

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


def _seq2_clean(r, doc, form, build):
    """`_seq2` of `build()`, drawn again until none of its look-alikes has a
    card-valid run of digits."""
    while True:
        parts = build()
        if not any(isinstance(p, tuple) and p[1].startswith("look:") and _cardish(p[0]) for p in parts):
            break
    _seq2(doc, form, parts)


# ------------------------------------------------------------ container escapes

def _xml(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")


def _dq(s):
    """A double-quoted string of C, Python, JSON, TOML, KiCad, BitBake."""
    return s.replace("\\", "\\\\").replace("\"", "\\\"")


def _renpy(s):
    """A Ren'Py string: text tags and interpolation doubled, quotes escaped."""
    return _dq(s).replace("[", "[[").replace("{", "{{")


def _vxml_attr(s):
    """A JavaScript single-quoted string inside an XML attribute."""
    return _xml(s.replace("\\", "\\\\").replace("'", "\\'"))


def _gcode(s):
    return s.replace("\\", "\\\\").replace("\n", "\\n")


def _ident(s):
    return s


# ------------------------------------------------------------ styled digits
#
# Digits that are no decimal digits (Unicode category No, or a digit with
# combining marks): what emoji keyboards and "fancy text" generators write.

def _style(s, name):
    def one(c):
        k = int(c)
        if name == "keycap":
            return c + "\ufe0f\u20e3"
        if name == "circled":
            return "\u24ea" if k == 0 else chr(0x2460 + k - 1)
        if name == "neg_circled":
            return "\u24ff" if k == 0 else chr(0x2776 + k - 1)
        if name == "superscript":
            return {1: "\u00b9", 2: "\u00b2", 3: "\u00b3"}.get(k, chr(0x2070 + k))
        if name == "subscript":
            return chr(0x2080 + k)
        if name == "underline":
            return c + "\u0332"
        return c + "\u20dd"                              # enclosing circle
    return "".join(one(c) if c.isascii() and c.isdigit() else c for c in s)


STYLES = ["keycap", "circled", "neg_circled", "superscript", "subscript", "underline", "enclosing_circle"]

# Separators between a number's groups no family wrote.
SEPS = {"wavy_dash": "\u3030", "ideo_stop": "\u3002", "half_ideo_stop": "\uff61", "ratio": "\u2236", "arm_stop": "\u0589",
        "eth_wordspace": "\u1361", "small_stop": "\ufe52", "big_solidus": "\u29f8", "sup_minus": "\u207b", "hangul_filler": "\u3164",
        "braille_blank": "\u2800", "mong_vowel_sep": "\u180e", "khmer_inherent": "\u17b4"}

# Separators written by an escape of the container (no family wrote these).
ESC_SEPS = {
    "pascal_hash": ("const CardNo = '", "'#32'", "';\n"),
    "vba_chr": ("cardNo = \"", "\" & Chr(32) & \"", "\"\n"),
    "excel_char": ("=HYPERLINK(\"#\", \"", "\"&CHAR(160)&\"", "\")\n"),
    "sql_chr": ("SELECT '", "' || CHR(32) || '", "' AS pan FROM dual;\n"),
    "yaml_nbsp": ("note: \"", "\\_", "\"\n"),
    "es6_brace": ("const label = \"", "\\u{a0}", "\";\n"),
    "perl_brace": ("my $label = \"", "\\x{a0}", "\";\n"),
    "css_escape": (".pan::after { content: \"", "\\a0 ", "\"; }\n"),
    "rtf_tilde": ("{\\rtf1\\ansi\\deff0 {\\fonttbl{\\f0 Arial;}}\\f0 ", "\\~", "\\par}\n"),
    "rtf_hex": ("{\\rtf1\\ansi\\ansicpg1252 ", "\\'a0", "\\par}\n"),
    "url_pct": ("https://receipts.example.coop/show?note=", "%C2%A0", "&lang=en\n"),
    "qp_nbsp": ("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n", "=C2=A0", "\n"),
    "haskell_dec": ("label = \"", "\\160\\&", "\"\n"),
    "mermaid_ent": ("flowchart LR\n  A[\"", "#160;", "\"] --> B\n"),
    "ssml_break": ("<speak>", " <break time=\"300ms\"/> ", "</speak>\n"),
}


def _split(groups, name):
    """The groups joined by the container's continuation of a string:
    (lead, value, tail)."""
    half = max(1, len(groups) // 2)
    a, b = " ".join(groups[:half]) + " ", " ".join(groups[half:])
    return {
        "py_implicit": ("label = (\"", a + "\"\n         \"" + b, "\")\n"),
        "c_adjacent": ("static const char *label = \"", a + "\"\n    \"" + b, "\";\n"),
        "java_plus": ("String label = \"", a + "\" +\n    \"" + b, "\";\n"),
        "yaml_fold": ("note: ", a.rstrip() + "\n  " + b, "\n"),
        "fortran_amp": ("character(len=*), parameter :: label = '", a + "&\n     &" + b, "'\n"),
        "vba_cont": ("label = \"", a + "\" & _\n    \"" + b, "\"\n"),
    }[name]


SPLITS = ["py_implicit", "c_adjacent", "java_plus", "yaml_fold", "fortran_amp", "vba_cont"]


# ------------------------------------------------------------ value makers

def _card(r, m):
    """A card of a less common scheme or grouping, with its Luhn digit."""
    kind = r.choice(["argencard", "codensa", "olimpica", "forbrugs", "diners14", "uatp", "maestro12", "maestro19", "verve19",
                     "unionpay19", "mir", "visa", "mc2", "amex", "jcb"])
    prefix, n = {
        "argencard": ("501105", 16),
        "codensa": ("590712", 16),
        "olimpica": ("636853", 16),
        "forbrugs": ("600722", 16),
        "diners14": (r.choice(["36", "300", "305", "38"]), 14),
        "uatp": ("1" + _nz(r), 15),
        "maestro12": (r.choice(["5018", "5020", "6304"]), 12),
        "maestro19": (r.choice(["6759", "5038", "6761"]), 19),
        "verve19": (str(r.randint(506099, 506198)), 19),
        "unionpay19": ("62" + _d(r, 4), 19),
        "mir": ("220" + str(r.randint(0, 4)), 16),
        "visa": ("4", 16),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "jcb": (str(r.randint(3528, 3589)), 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    c = body + m.luhn_digit(body)
    assert _luhn_ok(c) and len(c) == n, (kind, c)
    return c, kind


def _groups(c, kind):
    """How the number is written: 4-6-4 (Diners 14), 4-5-6 (UATP), 4-6-5
    (Amex), fours otherwise (the odd digits of 19 in a last short group)."""
    if kind == "diners14":
        return [c[:4], c[4:10], c[10:]]
    if kind == "uatp":
        return [c[:4], c[4:9], c[9:]]
    if len(c) == 15:
        return [c[:4], c[4:10], c[10:]]
    return [c[k:k + 4] for k in range(0, len(c), 4)]


IBAN_SHAPES = {
    "GL": lambda r: _d(r, 14),
    "GI": lambda r: _s(r, UP, 4) + _s(r, UPD, 15),
    "SV": lambda r: _s(r, UP, 4) + _d(r, 20),
    "TL": lambda r: "0" + _d(r, 18),
    "LC": lambda r: _s(r, UP, 4) + _s(r, UPD, 24),
    "VG": lambda r: _s(r, UP, 4) + _d(r, 16),
    "QA": lambda r: _s(r, UP, 4) + _s(r, UPD, 21),
    "MC": lambda r: _d(r, 10) + _s(r, UPD, 11) + _d(r, 2),
    "LI": lambda r: _d(r, 5) + _s(r, UPD, 12),
    "ME": lambda r: "5" + _d(r, 17),
    "AD": lambda r: _d(r, 8) + _s(r, UPD, 12),
    "YE": lambda r: _s(r, UP, 4) + _d(r, 4) + _s(r, UPD, 18),
    "GT": lambda r: _s(r, UPD, 4) + _s(r, UPD, 20),
    "JO": lambda r: _s(r, UP, 4) + _d(r, 4) + _s(r, UPD, 18),
    "KW": lambda r: _s(r, UP, 4) + _s(r, UPD, 22),
    "IL": lambda r: _d(r, 19),
}
IBAN_LEN = {"GL": 18, "GI": 23, "SV": 28, "TL": 23, "LC": 32, "VG": 24, "QA": 29, "MC": 27, "LI": 21, "ME": 22, "AD": 24, "YE": 30,
            "GT": 28, "JO": 30, "KW": 30, "IL": 23}


def _iban(r):
    c = r.choice(sorted(IBAN_SHAPES))
    i = with_check(c, IBAN_SHAPES[c](r))
    assert len(i) == IBAN_LEN[c], (c, i)
    return i, c


def _iban_text(i, sep=" "):
    return sep.join(i[k:k + 4] for k in range(0, len(i), 4))


def _bad_iban(r):
    i, c = _iban(r)
    return i[:2] + "%02d" % ((int(i[2:4]) + r.randint(1, 9)) % 97 + 2) + i[4:]


# Phones, international, in the country's own grouping.
PHONES = {
    "il": lambda r: "+972 5%s-%s-%s" % (r.choice("02348"), _d(r, 3), _d(r, 4)),
    "ae": lambda r: "+971 5%s %s %s" % (r.choice("024568"), _d(r, 3), _d(r, 4)),
    "ir": lambda r: "+98 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4)),
    "pk": lambda r: "+92 3%s %s" % (_d(r, 2), _d(r, 7)),
    "eg": lambda r: "+20 1%s %s %s" % (r.choice("0125"), _d(r, 4), _d(r, 4)),
    "cn": lambda r: "+86 1%s%s %s %s" % (r.choice("3589"), _d(r, 1), _d(r, 4), _d(r, 4)),
    "hk": lambda r: "+852 %s%s %s" % (r.choice("5690"), _d(r, 3), _d(r, 4)),
    "tw": lambda r: "+886 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3)),
    "kr": lambda r: "+82 10-%s-%s" % (_d(r, 4), _d(r, 4)),
    "mo": lambda r: "+853 6%s %s" % (_d(r, 3), _d(r, 4)),
    "gl": lambda r: "+299 %s %s %s" % (r.choice(["22", "32", "52", "55"]), _d(r, 2), _d(r, 2)),
    "fo": lambda r: "+298 %s%s" % (r.choice(["21", "22", "50", "29"]), _d(r, 4)),
    "gi": lambda r: "+350 5%s %s" % (_d(r, 3), _d(r, 4)),
    "ad": lambda r: "+376 %s%s %s" % (r.choice("36"), _d(r, 2), _d(r, 3)),
    "mc": lambda r: "+377 6 %s %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2)),
    "sm": lambda r: "+378 0549 %s" % _d(r, 6),
    "li": lambda r: "+423 %s %s %s" % (r.choice(["78", "79", "23"]) + _d(r, 1), _d(r, 2), _d(r, 2)),
    "bt": lambda r: "+975 17 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)),
    "mv": lambda r: "+960 7%s %s" % (_d(r, 2), _d(r, 4)),
    "bn": lambda r: "+673 8%s %s" % (_d(r, 2), _d(r, 4)),
    "tl": lambda r: "+670 77%s %s" % (_d(r, 2), _d(r, 4)),
    "cv": lambda r: "+238 9%s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)),
    "sc": lambda r: "+248 2 %s %s %s" % (_d(r, 2), _d(r, 2), _d(r, 2)),
}


def _phone(r):
    cc = r.choice(sorted(PHONES))
    return PHONES[cc](r), cc


# National numbers after a context word in the number's own script.
NATIONAL = {
    "cn": ("电话：", lambda r: "1%s%s %s %s" % (r.choice("3589"), _d(r, 1), _d(r, 4), _d(r, 4))),
    "kr": ("전화번호: ", lambda r: "010-%s-%s" % (_d(r, 4), _d(r, 4))),
    "tw": ("手機：", lambda r: "09%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 3))),
    "il": ("טלפון: ", lambda r: "05%s-%s-%s" % (r.choice("02348"), _d(r, 3), _d(r, 4))),
    "ir": ("تلفن همراه: ", lambda r: "09%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4))),
    "eg": ("رقم الهاتف: ", lambda r: "01%s %s %s" % (r.choice("0125"), _d(r, 4), _d(r, 4))),
    "hk": ("電話：", lambda r: "%s%s %s" % (r.choice("569"), _d(r, 3), _d(r, 4))),
}


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([5, 23, 38, 46, 62, 78, 82, 89, 94, 109, 138, 145, 151, 158, 176, 178, 185, 188, 195, 212, 217]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v4_private(r):
    return r.choice(["192.168.%d.%d" % (r.randint(0, 255), r.randint(2, 254)), "10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
                     "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254))])


def _v4_any(r):
    return _v4(r) if r.random() < 0.5 else _v4_private(r)


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a01:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2001:470:%s:%s::%s" % (g(), g(), g()),
        lambda: "2a03:2880:%s:%s:face:b00c:0:%s" % (g(), g(), g()),
        lambda: "2406:da18:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2c0f:%s:%s::%s" % (g(), g(), g()),
        lambda: "2803:%s:%s:%s::%s:%s" % (g(), g(), g(), g(), g()),
    ])()


def _pw(r):
    return _tok(r, r.randint(12, 22)) + r.choice(["", "", "!", "#", "%", "+", "=", "-", "_", "~", "&", "^", "@", "*"])


def _url_pw(r):
    return _tok(r, r.randint(10, 20)) + r.choice(["", "", "", "%C3%A9", "%E2%82%AC", "%C3%B8", "%21", "%24", "-", "_", "~", "."])


def _jwt(r):
    alg = r.choice(["RS256", "ES256", "EdDSA", "HS256", "PS256"])
    head = {"alg": alg, "typ": "JWT"}
    if r.random() < 0.5:
        head["kid"] = r.choice([_hx(r, 20), _uuid(r), "lms-%d" % r.randint(1, 9)])
    iat = r.randint(1_760_000_000, 1_800_000_000)
    body = {"sub": r.choice([_uuid(r), "learner-%d" % r.randint(10, 99999), "rig|" + _hx(r, 16)]),
            "iss": r.choice(["https://lms.example.edu", "https://voice.example.coop/auth", "https://rig.example.survey", "https://play.example.games"]),
            "aud": r.choice(["ivr", "gnss-cast", "printer-farm", "vn-save"]), "iat": iat, "exp": iat + r.choice([300, 3600, 86400])}
    n = {"RS256": 342, "PS256": 342, "ES256": 86, "EdDSA": 86, "HS256": 43}[alg]
    return "%s.%s.%s" % (_b64u(json.dumps(head, separators=(",", ":")).encode()),
                         _b64u(json.dumps(body, separators=(",", ":")).encode()), _s(r, B64URL, n))


def _lti_jwt(r):
    iat = r.randint(1_760_000_000, 1_800_000_000)
    body = {"iss": "https://lms.example.edu", "aud": _hx(r, 24), "sub": _uuid(r), "iat": iat, "exp": iat + 300, "nonce": _hx(r, 32),
            "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiResourceLinkRequest",
            "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0"}
    head = {"alg": "RS256", "typ": "JWT", "kid": _hx(r, 16)}
    return "%s.%s.%s" % (_b64u(json.dumps(head, separators=(",", ":")).encode()),
                         _b64u(json.dumps(body, separators=(",", ":")).encode()), _s(r, B64URL, 342))


def _pem_body(r):
    kind = r.choice(["ed25519", "p256", "rsa"])
    if kind == "ed25519":
        der = bytes.fromhex("302e020100300506032b657004220420") + _rb(r, 32)
    elif kind == "p256":
        der = bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420") + _rb(r, 32) + \
            bytes.fromhex("a144034200") + b"\x04" + _rb(r, 64)
    else:
        der = bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100") + _rb(r, 1218 - 38)
    body = _b64(der)
    return ["-----BEGIN PRIVATE KEY-----"] + [body[k:k + 64] for k in range(0, len(body), 64)] + ["-----END PRIVATE KEY-----"], kind


# ------------------------------------------------------------ prose
#
# Short phrases written by the session, only roughly idiomatic (most of
# these languages it does not speak; the phrase is then an approximation).

PROSE = {
    "fit": "Olkaa hyvä, tässä {} niinku luppasin ",         # Meänkieli
    "tsd": "Ἁ ἐπιστολὰ: ὁ {} ἔνι ",                        # Tsakonian (Greek script)
    "grk": "Kalimera, grafo to {} ",                        # Griko
    "aae": "Mirëdita, shkruajta {} ",                       # Arbëresh
    "aat": "Μιρëντίτα, σκρούατα {} ",                       # Arvanitika (Greek script)
    "pnt": "Καλημέρα, εγράψα το {} ",                       # Pontic Greek
    "cyg": "Καλημέρα, έγραψα σου το {} ",                   # Cypriot Greek
    "ruq": "Bună zuă, scriș {} ",                           # Megleno-Romanian
    "ruo": "Bur dan, scrit-am {} ",                         # Istro-Romanian
    "ams": "うがみんしょーらん、{} かきやびたん ",            # Amami
    "mvi": "んみゃーち、{} かきぃ ",                          # Miyako
    "rys": "おーりとーり、{} かきたん ",                      # Yaeyama
    "yoi": "どぅなんちま、{} かちゅん ",                      # Yonaguni
    "jpn_hachijo": "おじゃりやれ、{} かいたら ",              # Hachijō
    "evn": "Дорообо, ирэ {} ",                              # Evenki
    "niv": "Туғс, ӻы {} ",                                   # Nivkh
    "itl": "Кэзык, т'ылэ {} ",                              # Itelmen
    "lut": "Haʔƛʼ sləx̌il, {} ",                             # Lushootseed
    "hop": "Um pitu, yep {} ",                              # Hopi
    "ood": "Sḱeg taṣ, ñeid {} ",                            # Tohono Oʼodham
    "yaq": "Lios em chania, {} ",                           # Yaqui
    "top": "Kuxi, tsokgni {} ",                             # Totonac
    "hus": "Tajaxtal, {} ",                                 # Huastec
    "kek": "Sa' le aamaq, {} ",                             # Qʼeqchiʼ
    "cuk": "Nuedi, {} ",                                    # Guna
    "emp": "Biadua, {} ",                                   # Emberá
}


def _prose(r, doc, value, cls, form_prefix, word, claimed=True):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n", claimed)


# ------------------------------------------------------------ carriers
#
# Surroundings every class is written in. Each takes a label and gives the
# text before and after the value, and how the container writes it.

def _carrier(r, label):
    form = r.choice(["rtklib", "cif", "gpx", "epub_opf", "fb2", "ssml", "vxml", "rasa", "moodle", "fountain", "arb", "gcode",
                     "klipper", "renpy", "ink", "harlowe", "kicad", "blender", "circuitpy", "bitbake", "autounattend", "ipxe",
                     "cabrillo", "escpos", "openscad"])
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    camel = "".join(w.title() if k else w for k, w in enumerate(key.split("_")))
    pascal = camel[:1].upper() + camel[1:]
    up = key.upper()
    esc = {"epub_opf": _xml, "fb2": _xml, "ssml": _xml, "vxml": _vxml_attr, "rasa": _dq, "moodle": _xml, "gpx": _xml, "arb": _dq,
           "gcode": _gcode, "klipper": _dq, "renpy": _renpy, "harlowe": _dq, "kicad": _dq, "blender": _dq, "circuitpy": _dq, "bitbake": _dq,
           "autounattend": _xml, "escpos": _dq, "openscad": _dq}.get(form, _ident)
    lead, tail = {
        "rtklib": ("# rtknavi options (v.2.4.3)\npos1-posmode      =kinematic\n# %s: " % label, "\nout-solformat     =llh\n"),
        "cif": ("data_crew\n_publ_contact_author_name 'Brandt, Ilka'\n_publ_contact_author_%s\n;\n" % key, "\n;\n"),
        "gpx": ("<wpt lat=\"%.6f\" lon=\"%.6f\">\n  <name>BASE</name>\n  <desc>%s: " % (r.uniform(60, 70), -r.uniform(5, 55), label), "</desc>\n</wpt>\n"),
        "epub_opf": ("<metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n  <meta property=\"crew:%s\">" % key, "</meta>\n</metadata>\n"),
        "fb2": ("<description>\n  <custom-info info-type=\"%s\">" % key, "</custom-info>\n</description>\n"),
        "ssml": ("<speak version=\"1.1\" xml:lang=\"en-GB\">\n  <s>Your %s is " % label, "</s>\n</speak>\n"),
        "vxml": ("<vxml version=\"2.1\">\n  <var name=\"%s\" expr=\"'" % camel, "'\"/>\n</vxml>\n"),
        "rasa": ("responses:\n  utter_%s:\n  - text: \"Your %s is " % (key, label), "\"\n"),
        "moodle": ("<config>\n  <name>%s</name>\n  <value>" % key, "</value>\n</config>\n"),
        "fountain": ("Title: The Long Survey\nCredit: Written by\nAuthor: Aino Kallio\nContact:\n    %s: " % label, "\n\nINT. SURVEY TRUCK - NIGHT\n"),
        "arb": ("{\n  \"@@locale\": \"en\",\n  \"%s\": \"" % camel, "\"\n}\n"),
        "gcode": ("; prusaslicer_config = begin\n; notes = %s: " % label, "\n; prusaslicer_config = end\n"),
        "klipper": ("[gcode_macro SHOW_%s]\ngcode:\n  RESPOND MSG=\"%s: " % (up, label), "\"\n"),
        "renpy": ("define %s = \"" % key, "\"\n"),
        "ink": ("VAR %s = \"" % key, "\"\n"),
        "harlowe": ("(set: $%s to \"" % camel, "\")\n"),
        "kicad": ("  (symbol (lib_id \"Device:R\") (at 101.6 63.5 0)\n    (property \"%s\" \"" % pascal, "\" (at 101.6 60.96 0)\n      (effects (font (size 1.27 1.27)) hide))\n"),
        "blender": ("import bpy\nbpy.data.scenes[\"Scene\"][\"%s\"] = \"" % key, "\"\n"),
        "circuitpy": ("# settings.toml\nCIRCUITPY_WEB_API_PORT = 80\n%s = \"" % up, "\"\n"),
        "bitbake": ("# conf/local.conf\nMACHINE ?= \"raspberrypi4-64\"\nCREW_%s = \"" % up, "\"\n"),
        "autounattend": ("<component name=\"Microsoft-Windows-Shell-Setup\">\n  <RegisteredOrganization>Crew</RegisteredOrganization>\n  <%s>" % pascal, "</%s>\n</component>\n" % pascal),
        "ipxe": ("#!ipxe\ndhcp\nset crew/%s " % key, "\n"),
        "cabrillo": ("START-OF-LOG: 3.0\nCALLSIGN: OY1AB\nSOAPBOX: %s " % label, "\nEND-OF-LOG:\n"),
        "escpos": ("from escpos.printer import Network\np = Network(\"printer.local\")\np.text(\"%s: " % label, "\\n\")\np.cut()\n"),
        "openscad": ("// engraved on the enclosure lid\n%s = \"" % key, "\";\nlinear_extrude(0.6) text(%s, size=4);\n" % key),
    }[form]
    return form, lead, tail, esc


def _carry(r, doc, label, value, cls, form_prefix, claimed=True):
    f, lead, tail, esc = _carrier(r, label)
    _put(doc, lead, esc(value), cls, "%s_%s" % (form_prefix, f), tail, claimed)


# ------------------------------------------------------------ items

LOCALS = ["survey.crew", "rig_7", "vn-writer", "aino.k", "print_farm", "ivr-ops", "lms.admin", "dr.kanoa", "hopi_radio", "crew+gnss",
          "ebooks", "cif.deposit", "n.ts'ang", "bench_3", "qc-lab"]
DOMS = ["example.survey", "rig.example.org", "example.games", "voice.example.coop", "example.edu", "lab.example.ac.uk", "example.gl",
        "example.fo", "example.li", "example.mo"]


def _email(r):
    return "%s@%s" % (r.choice(LOCALS), r.choice(DOMS))


def i_email(r, doc, m):
    form = r.choice(["ssml", "vxml_submit", "cif_field", "epub_creator", "fb2_author", "kicad_prop", "renpy_say", "cabrillo", "bitbake_maint",
                     "autounattend", "aegis_issuer", "bidi_isolate", "split", "esc_at", "carrier", "carrier", "carrier", "prose"])
    e = _email(r)
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        _carry(r, doc, "e-mail", e, "email", "carrier")
        return
    if form == "bidi_isolate":
        # An address inside right-to-left text, isolated left-to-right by the editor.
        lead = r.choice(["לשאלות כתבו אל ", "للاستفسار راسلونا على ", "برای پرسش به "])
        _put(doc, lead + "\u2066", e, "email", form, "\u2069 .\n")
        return
    if form in ("split", "esc_at"):
        # A local part with no quote, so no container doubles or escapes it.
        while "'" in e:
            e = _email(r)
    if form == "split":
        name = r.choice(["py_implicit", "c_adjacent", "java_plus"])
        loc, dom = e.split("@")
        lead, v, tail = {"py_implicit": ("CONTACT = (\"", loc + "@\"\n           \"" + dom, "\")\n"),
                         "c_adjacent": ("#define CONTACT \"", loc + "\" \"@\" \"" + dom, "\"\n"),
                         "java_plus": ("String contact = \"", loc + "\" + \"@" + dom, "\";\n")}[name]
        _put(doc, lead, v, "email", "split_" + name, tail)
        return
    if form == "esc_at":
        # The at-sign written by an escape no family wrote.
        name = r.choice(["pascal", "vba", "haskell", "css", "rtf", "yaml"])
        loc, dom = e.split("@")
        lead, v, tail = {"pascal": ("const Contact = '", loc + "'#64'" + dom, "';\n"),
                         "vba": ("contact = \"", loc + "\" & Chr(64) & \"" + dom, "\"\n"),
                         "haskell": ("contact = \"", loc + "\\64" + dom, "\"\n"),
                         "css": (".contact::after { content: \"", loc + "\\40 " + dom, "\"; }\n"),
                         "rtf": ("{\\rtf1\\ansi ", loc + "\\'40" + dom, "\\par}\n"),
                         "yaml": ("contact: \"", loc + "\\x40" + dom, "\"\n")}[name]
        _put(doc, lead, v, "email", "esc_at_" + name, tail)
        return
    if form == "epub_creator":
        _seq(doc, form, ["<dc:creator id=\"aut\">Aino Kallio</dc:creator>\n<meta refines=\"#aut\" property=\"crew:contact\">", (e, "email"),
                         "</meta>\n<dc:rights>Contact ", (_email(r), "email"), " for rights.</dc:rights>\n"])
        return
    lead, tail = {
        "ssml": ("<speak>Write to us at <say-as interpret-as=\"characters\">", "</say-as>.</speak>\n"),
        "vxml_submit": ("<submit next=\"https://voice.example.coop/cb\" namelist=\"caller\"/>\n<var name=\"notify\" expr=\"'", "'\"/>\n"),
        "cif_field": ("_publ_contact_author_email\n;\n", "\n;\n"),
        "fb2_author": ("<author>\n  <first-name>Aino</first-name>\n  <email>", "</email>\n</author>\n"),
        "kicad_prop": ("    (property \"Designer\" \"", "\" (at 0 0 0) (effects hide))\n"),
        "renpy_say": ("    e \"Mail me at ", " when you finish chapter two.\"\n"),
        "cabrillo": ("EMAIL: ", "\n"),
        "bitbake_maint": ("MAINTAINER = \"Crew Builds <", ">\"\n"),
        "autounattend": ("<SupportProvider>Crew</SupportProvider>\n<SupportURL>mailto:", "</SupportURL>\n"),
        "aegis_issuer": ("{\"type\": \"totp\", \"uuid\": \"%s\", \"name\": \"" % _uuid(r), "\", \"issuer\": \"Moodle\"}\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["style", "style", "sep", "sep", "esc", "esc", "bidi", "bidi", "split", "ssml_tel", "vxml_transfer", "cabrillo",
                     "national_ctx", "national_ctx", "national_noctx", "intl", "carrier", "carrier", "prose"])
    p, cc = _phone(r)
    if form == "style":
        name = r.choice(STYLES)
        _put(doc, r.choice(["📞 ", "Tel ", "WhatsApp "]), _style(p, name), "phone", "style_%s_%s" % (name, cc), "\n")
        return
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["phone: ", "Tel ", "call "]), p.replace(" ", SEPS[name]).replace("-", SEPS[name]), "phone", "sep_%s_%s" % (name, cc), "\n")
        return
    if form == "esc":
        name = r.choice(["yaml_nbsp", "es6_brace", "perl_brace", "css_escape", "rtf_tilde", "url_pct", "qp_nbsp", "haskell_dec", "mermaid_ent", "ssml_break"])
        lead, sep, tail = ESC_SEPS[name]
        _put(doc, lead, p.replace(" ", sep).replace("-", sep), "phone", "esc_%s_%s" % (name, cc), tail)
        return
    if form == "bidi":
        name = r.choice(["isolate", "alm_groups", "lrm_groups"])
        lead = r.choice(["התקשרו ", "اتصل على ", "شماره تماس "])
        if name == "isolate":
            _put(doc, lead + "\u2066", p, "phone", "bidi_isolate_" + cc, "\u2069\n")
        else:
            mark = "\u061c" if name == "alm_groups" else "\u200e"
            _put(doc, lead + mark, p.replace(" ", mark + " ").replace("-", mark + "-"), "phone", "bidi_%s_%s" % (name, cc), "\n")
        return
    if form == "split":
        name = r.choice(["py_implicit", "c_adjacent", "java_plus", "vba_cont"])
        lead, v, tail = _split(p.split(" "), name)
        _put(doc, lead, v, "phone", "split_%s_%s" % (name, cc), tail)
        return
    if form == "national_ctx":
        n = r.choice(sorted(NATIONAL))
        word, make = NATIONAL[n]
        _put(doc, word, make(r), "phone", "national_ctx_" + n, "\n")
        return
    if form == "national_noctx":
        n = r.choice(["cn", "kr", "tw"])
        _put(doc, r.choice(["", "batch ", "lot "]), NATIONAL[n][1](r), "phone", "national_noctx_" + n, "\n", claimed=False)
        return
    if form == "prose":
        _prose(r, doc, p, "phone", "prose", "telefon")
        return
    if form == "carrier":
        _carry(r, doc, "phone", p, "phone", "carrier")
        return
    lead, tail = {
        "ssml_tel": ("<speak>Call the desk on <say-as interpret-as=\"telephone\" format=\"%s\">" % cc, "</say-as>.</speak>\n"),
        "vxml_transfer": ("<transfer name=\"agent\" dest=\"tel:", "\" bridge=\"true\" connecttimeout=\"20s\"/>\n"),
        "cabrillo": ("ADDRESS: Tórshavn\nPHONE: ", "\n"),
        "intl": (r.choice(["", "Tel ", "mobile "]), "\n"),
    }[form]
    v = p.replace(" ", "-") if form == "vxml_transfer" else p
    _put(doc, lead, v, "phone", "%s_%s" % (form, cc), tail)


SSN_WORDS = {
    "cn": "社会安全号码（SSN）：", "kr": "사회보장번호(SSN): ", "he": "מספר ביטוח לאומי אמריקאי (SSN): ", "fa": "شماره تأمین اجتماعی (SSN): ",
    "ar": "رقم الضمان الاجتماعي (SSN): ",
}


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["style", "style", "sep", "sep", "esc", "comb", "comb", "split", "ssml", "vxml", "script_ctx", "script_ctx",
                     "kicad", "carrier", "carrier", "prose"])
    if form == "style":
        name = r.choice(STYLES)
        _put(doc, r.choice(["SSN: ", "Social Security No. ", "ssn "]), _style(dashed, name), "us_ssn", "style_" + name, "\n")
        return
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["SSN ", "Social Security number: ", "SSN# "]), dashed.replace("-", SEPS[name]), "us_ssn", "sep_" + name, "\n")
        return
    if form == "esc":
        name = r.choice(["yaml_nbsp", "es6_brace", "perl_brace", "rtf_tilde", "url_pct", "haskell_dec", "mermaid_ent", "ssml_break"])
        lead, sep, tail = ESC_SEPS[name]
        _put(doc, lead + "SSN ", dashed.replace("-", sep), "us_ssn", "esc_" + name, tail)
        return
    if form == "comb":
        # A comb field as pdftotext lays it out: one digit a box.
        spaced = " ".join(a) + r.choice(["   ", " - ", "  "]) + " ".join(g) + r.choice(["   ", " - ", "  "]) + " ".join(s)
        _put(doc, r.choice(["1a Employee's social security number\n", "Social Security Number  "]), spaced, "us_ssn", "comb", "\n")
        return
    if form == "split":
        name = r.choice(["py_implicit", "c_adjacent", "java_plus"])
        lead, tail = {"py_implicit": ("ssn = (\"", "\")\n"), "c_adjacent": ("static const char *ssn = \"", "\";\n"),
                      "java_plus": ("String ssn = \"", "\";\n")}[name]
        mid = {"py_implicit": "\"\n       \"", "c_adjacent": "\"\n    \"", "java_plus": "\" +\n    \""}[name]
        _put(doc, "# SSN of the test employee\n" + lead, "%s-%s-%s%s" % (a, g, mid, s), "us_ssn", "split_" + name, tail)
        return
    if form == "script_ctx":
        lang = r.choice(sorted(SSN_WORDS))
        _put(doc, SSN_WORDS[lang], dashed, "us_ssn", "script_ctx_" + lang, "\n")
        return
    if form == "prose":
        _prose(r, doc, dashed, "us_ssn", "prose", "SSN")
        return
    if form == "carrier":
        _carry(r, doc, "SSN", dashed, "us_ssn", "carrier")
        return
    lead, tail = {
        "ssml": ("<speak>The SSN on file is <say-as interpret-as=\"digits\">", "</say-as>.</speak>\n"),
        "vxml": ("<var name=\"ssn\" expr=\"'", "'\"/>\n"),
        "kicad": ("    (property \"Owner SSN\" \"", "\" (at 0 0 0) (effects hide))\n"),
    }[form]
    _put(doc, lead, dashed, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    g = _groups(c, kind)
    form = r.choice(["style", "style", "sep", "sep", "esc", "esc", "esc", "bidi", "split", "split", "ssml_digits", "escpos", "vxml",
                     "plain", "carrier", "carrier", "prose"])
    if form == "style":
        name = r.choice(STYLES)
        _put(doc, r.choice(["card ", "Card no. ", "PAN: "]), _style(" ".join(g), name), "credit_card", "style_%s_%s" % (name, kind), "\n")
        return
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["card ", "Kortnummer ", "paid with "]), SEPS[name].join(g), "credit_card", "sep_%s_%s" % (name, kind), "\n")
        return
    if form == "esc":
        name = r.choice(sorted(ESC_SEPS))
        lead, sep, tail = ESC_SEPS[name]
        _put(doc, lead, sep.join(g), "credit_card", "esc_%s_%s" % (name, kind), tail)
        return
    if form == "bidi":
        name = r.choice(["isolate_groups", "alm_groups"])
        lead = r.choice(["رقم البطاقة: ", "מספר כרטיס: ", "شماره کارت: "])
        v = " ".join("\u2066" + x + "\u2069" for x in g) if name == "isolate_groups" else ("\u061c ").join(g)
        _put(doc, lead, v, "credit_card", "bidi_%s_%s" % (name, kind), "\n")
        return
    if form == "split":
        name = r.choice(SPLITS)
        lead, v, tail = _split(g, name)
        _put(doc, "# test card\n" + lead, v, "credit_card", "split_%s_%s" % (name, kind), tail)
        return
    if form == "prose":
        _prose(r, doc, " ".join(g), "credit_card", "prose", "card")
        return
    if form == "carrier":
        _carry(r, doc, "card number", " ".join(g), "credit_card", "carrier")
        return
    lead, v, tail = {
        "ssml_digits": ("<speak>Card ending check: <say-as interpret-as=\"digits\">", c, "</say-as></speak>\n"),
        "escpos": ("p.set(align=\"left\")\np.text(\"CARD ", " ".join(g), "\\n\")\n"),
        "vxml": ("<var name=\"pan\" expr=\"'", " ".join(g), "'\"/>\n"),
        "plain": (r.choice(["card ", "Card number: ", "PAN "]), r.choice([" ", "-", ""]).join(g), "\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i, cc = _iban(r)
    form = r.choice(["sep", "sep", "esc", "esc", "lower", "lower", "wrap", "split", "ssml", "compact", "spaced", "escpos", "carrier",
                     "carrier", "prose"])
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["IBAN ", "IBAN: ", "account "]), _iban_text(i, SEPS[name]), "iban", "sep_%s_%s" % (name, cc), "\n")
        return
    if form == "esc":
        name = r.choice(sorted(ESC_SEPS))
        lead, sep, tail = ESC_SEPS[name]
        _put(doc, lead + "IBAN ", _iban_text(i, sep), "iban", "esc_%s_%s" % (name, cc), tail)
        return
    if form == "lower":
        v = i.lower() if r.random() < 0.5 else _iban_text(i.lower())
        _put(doc, r.choice(["iban: ", "send it to iban ", "my iban is "]), v, "iban", "lower_" + cc, "\n")
        return
    if form == "wrap":
        # A fixed-width statement wraps the number between two groups.
        t = _iban_text(i).split(" ")
        k = r.randint(2, len(t) - 1)
        _put(doc, "Account holder: Aino Kallio              IBAN: ", " ".join(t[:k]) + "\n" + " " * r.choice([0, 4, 46]) + " ".join(t[k:]),
             "iban", "wrap_" + cc, "\nBIC: see statement\n")
        return
    if form == "split":
        name = r.choice(SPLITS)
        lead, v, tail = _split(_iban_text(i).split(" "), name)
        _put(doc, lead, v, "iban", "split_%s_%s" % (name, cc), tail)
        return
    if form == "prose":
        _prose(r, doc, _iban_text(i), "iban", "prose", "IBAN")
        return
    if form == "carrier":
        _carry(r, doc, "IBAN", _iban_text(i) if r.random() < 0.6 else i, "iban", "carrier")
        return
    lead, v, tail = {
        "ssml": ("<speak>Transfer to <say-as interpret-as=\"characters\">", i, "</say-as>.</speak>\n"),
        "compact": (r.choice(["IBAN ", "iban=", "account: "]), i, "\n"),
        "spaced": ("IBAN: ", _iban_text(i), "\n"),
        "escpos": ("p.text(\"IBAN ", _iban_text(i), "\\n\")\n"),
    }[form]
    _put(doc, lead, v, "iban", "%s_%s" % (form, cc), tail)


def i_ipv4(r, doc, m):
    ip = _v4_any(r)
    form = r.choice(["defang_paren", "defang_brace", "defang_dot_word", "ideo_stop", "dotted_hex", "rtklib", "ipxe", "autounattend",
                     "micropython", "escpos", "moonraker_power", "cabrillo_qth", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    if form == "carrier":
        _carry(r, doc, "host", ip, "ipv4", "carrier")
        return
    if form == "micropython":
        gw = ip.rsplit(".", 1)[0] + ".1"
        _seq(doc, form, ["import network\nwlan = network.WLAN(network.STA_IF)\nwlan.ipconfig(addr4='", (ip, "ipv4"), "/24', gw4='", (gw, "ipv4"), "')\n"])
        return
    v = {"defang_paren": ip.replace(".", "(.)"), "defang_brace": ip.replace(".", "{.}"), "defang_dot_word": ip.replace(".", "[dot]"),
         "ideo_stop": ip.replace(".", "\u3002"), "dotted_hex": ".".join("0x%02X" % int(o) for o in ip.split("."))}.get(form, ip)
    lead, tail = {
        "defang_paren": (r.choice(["IOC: callback to ", "blocked: ", "C2 "]), "\n"),
        "defang_brace": ("indicator: ", " (port 4444)\n"),
        "defang_dot_word": ("the beacon went to ", " every 60s\n"),
        "ideo_stop": ("服务器地址：", "\n"),
        "dotted_hex": ("decoded config: connect(", ", 8443)\n"),
        "rtklib": ("inpstr1-type      =tcpcli\ninpstr1-path      =", ":%d\n" % r.randint(2000, 9999)),
        "ipxe": ("#!ipxe\nset net0/ip ", "\nifopen net0\n"),
        "autounattend": ("<UnicastIpAddresses>\n  <IpAddress wcm:action=\"add\" wcm:keyValue=\"1\">", "/24</IpAddress>\n</UnicastIpAddresses>\n"),
        "escpos": ("p = Network(\"", "\", port=9100)\n"),
        "moonraker_power": ("[power printer]\ntype: tasmota\naddress: ", "\n"),
        "cabrillo_qth": ("X-Q: remote station at ", "\n"),
    }[form]
    _put(doc, lead, v, "ipv4", form, tail)


def i_ipv6(r, doc, m):
    ip = _v6(r)
    form = r.choice(["upper", "leading_zeros", "zone", "zone_pct25", "isatap", "sixto4", "teredo", "rtklib", "ipxe_chain", "autounattend",
                     "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    if form == "carrier":
        _carry(r, doc, "host", ip, "ipv6", "carrier")
        return
    if form == "upper":
        _put(doc, r.choice(["Address: ", "IPv6 Address. . . . . . . . . . . : "]), ip.upper(), "ipv6", form, "\n")
        return
    if form == "leading_zeros":
        groups = [r.choice(["2a01", "2001", "2a02", "2c0f"]), "%04x" % r.randint(0, 0xfff)] + ["%04x" % r.randint(0, 0xffff) for _ in range(6)]
        full = ":".join(groups)
        _put(doc, "inet6 addr: ", full, "ipv6", form, "/64 Scope:Global\n")
        return
    if form in ("zone", "zone_pct25"):
        ll = "fe80::%x:%xff:fe%02x:%x" % (r.randint(1, 0xffff), r.randint(0, 255), r.randint(0, 255), r.randint(1, 0xffff))
        if form == "zone":
            _put(doc, "$ ping -6 ", ll, "ipv6", form, "%" + r.choice(["eth0", "wlan0", "en0", "12"]) + "\n")
        else:
            _put(doc, "octoprint url: http://[", ll, "ipv6", form, "%25" + r.choice(["eth0", "wlan0"]) + "]:5000/\n")
        return
    if form == "isatap":
        v4 = _v4_any(r)
        _put(doc, "Tunnel adapter isatap:\n   Link-local IPv6 Address . . . . . : ", "fe80::5efe:" + v4, "ipv6", form, "%" + str(r.randint(2, 30)) + "\n")
        return
    if form == "sixto4":
        o = [int(x) for x in _v4(r).split(".")]
        v = "2002:%x:%x::%x" % (o[0] << 8 | o[1], o[2] << 8 | o[3], r.randint(1, 0xffff))
        _put(doc, "6to4 relay address ", v, "ipv6", form, "\n")
        return
    if form == "teredo":
        v = "2001:0:%x:%x:%x:%x:%x:%x" % tuple(r.randint(1, 0xffff) for _ in range(6))
        _put(doc, "Teredo IPv6 address: ", v, "ipv6", form, "\n")
        return
    lead, tail = {
        "rtklib": ("inpstr2-type      =tcpcli\ninpstr2-path      =[", "]:2101\n"),
        "ipxe_chain": ("#!ipxe\nchain http://[", "]/boot.ipxe\n"),
        "autounattend": ("<IpAddress wcm:action=\"add\" wcm:keyValue=\"2\">", "/64</IpAddress>\n"),
    }[form]
    _put(doc, lead, ip, "ipv6", form, tail)


def _totp_secret(r):
    return base64.b32encode(_rb(r, r.choice([10, 20, 32]))).decode().rstrip("=")


def _otp_migration(r):
    """A Google Authenticator export: a protobuf of the secret, the name and the issuer."""
    secret = _rb(r, 20)
    name = r.choice(LOCALS).encode()
    issuer = r.choice([b"Moodle", b"GitLab", b"Proton"])
    otp = b"\x0a\x14" + secret + b"\x12" + bytes([len(name)]) + name + b"\x1a" + bytes([len(issuer)]) + issuer + b"\x20\x01\x28\x01\x30\x02"
    payload = b"\x0a" + bytes([len(otp)]) + otp + b"\x10\x01\x18\x01\x20\x00\x28" + bytes([r.randint(1, 120)])
    return base64.b64encode(payload).decode().replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")


def _provider(r):
    """A provider token no family wrote, in its own place: parts as `_seq2` takes them."""
    name = r.choice(["wandb", "unkey", "liveblocks", "trigger", "hubspot", "modal", "deno", "zuplo", "tigris", "checkly", "rootly",
                     "firehydrant", "calcom", "ghost", "tinybird", "todoist", "readwise", "webflow", "azure_storage", "aegis", "andotp",
                     "otp_migration"])
    if name == "wandb":
        return name, [r.choice(["WANDB_API_KEY=", "machine api.wandb.ai\n  login user\n  password "]), (_hx(r, 40), "api_key"), "\n"]
    if name == "unkey":
        return name, ["UNKEY_ROOT_KEY=", ("unkey_" + _s(r, B58, r.randint(24, 28)), "api_key"), "\n"]
    if name == "liveblocks":
        return name, ["LIVEBLOCKS_SECRET_KEY=", ("sk_prod_" + _s(r, AN + "-_", 64), "api_key"), "\nNEXT_PUBLIC_LIVEBLOCKS_PUBLIC_KEY=",
                      ("pk_prod_" + _s(r, AN + "-_", 64), "look:liveblocks_public_key"), "\n"]
    if name == "trigger":
        return name, ["TRIGGER_SECRET_KEY=", ("tr_" + r.choice(["dev", "prod", "stg"]) + "_" + _s(r, AN, 20), "api_key"), "\n"]
    if name == "hubspot":
        return name, ["HUBSPOT_ACCESS_TOKEN=", ("pat-" + r.choice(["na1", "na2", "eu1"]) + "-" + _uuid(r), "api_key"), "\n"]
    if name == "modal":
        return name, ["[default]\ntoken_id = \"", ("ak-" + _s(r, AN, 22), "api_key"), "\"\ntoken_secret = \"", ("as-" + _s(r, AN, 22), "api_key"),
                      "\"\nactive = true\n"]
    if name == "deno":
        return name, ["DENO_DEPLOY_TOKEN=", ("ddp_" + _s(r, AN, 36), "api_key"), "\n"]
    if name == "zuplo":
        return name, ["Authorization: Bearer ", ("zpka_" + _hx(r, 32) + "_" + _hx(r, 8), "api_key"), "\n"]
    if name == "tigris":
        return name, ["[tigris]\ntype = s3\nprovider = Other\naccess_key_id = ", ("tid_" + _s(r, AN + "_", 30), "api_key"), "\nsecret_access_key = ",
                      ("tsec_" + _s(r, AN + "_-", 43), "api_key"), "\nendpoint = https://fly.storage.tigris.dev\n"]
    if name == "checkly":
        return name, ["CHECKLY_API_KEY=", ("cu_" + _hx(r, 32), "api_key"), "\nCHECKLY_ACCOUNT_ID=", (_uuid(r), "look:checkly_account_id"), "\n"]
    if name == "rootly":
        return name, ["ROOTLY_API_TOKEN=", ("rootly_" + _hx(r, 64), "api_key"), "\n"]
    if name == "firehydrant":
        return name, ["FIREHYDRANT_API_KEY=", ("fhb-" + _hx(r, 32), "api_key"), "\n"]
    if name == "calcom":
        return name, ["CAL_API_KEY=", ("cal_" + r.choice(["live", "test"]) + "_" + _hx(r, 32), "api_key"), "\n"]
    if name == "ghost":
        return name, ["GHOST_ADMIN_API_KEY=", ("%s:%s" % (_hx(r, 24), _hx(r, 64)), "api_key"), "\nGHOST_CONTENT_API_KEY=",
                      (_hx(r, 26), "api_key"), "\n"]
    if name == "tinybird":
        body = _b64u(json.dumps({"u": _uuid(r), "id": _uuid(r), "host": r.choice(["gcp-europe-west3", "aws-eu-central-1"])}).encode())
        return name, ["TB_TOKEN=", ("p." + body + "." + _s(r, B64URL, 43), "api_key"), "\n"]
    if name == "todoist":
        return name, ["TODOIST_API_TOKEN=", (_hx(r, 40), "api_key"), "\n"]
    if name == "readwise":
        return name, ["READWISE_TOKEN=", (_s(r, AN, 50), "api_key"), "\n"]
    if name == "webflow":
        return name, ["WEBFLOW_API_TOKEN=", (_hx(r, 64), "api_key"), "\nWEBFLOW_SITE_ID=", (_hx(r, 24), "look:webflow_site_id"), "\n"]
    if name == "azure_storage":
        acct = "crew" + _s(r, LOWD, 6)
        return name, ["AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=" % acct, (_b64(_rb(r, 64)), "api_key"),
                      ";EndpointSuffix=core.windows.net\"\n"]
    if name == "aegis":
        return name, ["{\"type\": \"totp\", \"uuid\": \"", (_uuid(r), "look:aegis_entry_uuid"), "\", \"name\": \"crew\", \"issuer\": \"LMS\", \"info\": {\"secret\": \"",
                      (_totp_secret(r), "api_key"), "\", \"algo\": \"SHA1\", \"digits\": 6, \"period\": 30}}\n"]
    if name == "andotp":
        return name, ["[{\"secret\":\"", (_totp_secret(r), "api_key"), "\",\"issuer\":\"Print farm\",\"label\":\"crew\",\"digits\":6,\"type\":\"TOTP\","
                      "\"algorithm\":\"SHA1\",\"thumbnail\":\"Default\",\"last_used\":%d,\"used_frequency\":0,\"period\":30,\"tags\":[]}]\n" % r.randint(1_700_000_000_000, 1_800_000_000_000)]
    return name, ["scanned QR: otpauth-migration://offline?data=", (_otp_migration(r), "api_key"), "\n"]


def i_api_key(r, doc, m):
    pw = _pw(r)
    form = r.choice(["circuitpy_wifi", "circuitpy_web", "autounattend_admin", "autounattend_autologon", "ipxe_password", "bitbake_usermod",
                     "moodle_dbpass", "moonraker_secrets", "rasa_creds", "blender_addon", "provider", "provider", "provider", "provider",
                     "provider", "provider", "provider", "provider", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    if form == "carrier":
        _carry(r, doc, "api token", _tok(r, 40), "api_key", "carrier")
        return
    if form == "provider":
        while True:
            name, parts = _provider(r)
            if not any(isinstance(p, tuple) and p[1].startswith("look:") and _cardish(p[0]) for p in parts):
                break
        _seq2(doc, "provider_" + name, parts)
        return
    if form == "moonraker_secrets":
        _seq(doc, form, ["# moonraker.secrets\n[mqtt_credentials]\nusername: crew\npassword: ", (pw, "api_key"), "\n[home_assistant]\ntoken: ",
                         (_tok(r, 40), "api_key"), "\n"])
        return
    lead, v, tail = {
        "circuitpy_wifi": ("# settings.toml\nCIRCUITPY_WIFI_SSID = \"crew-bench\"\nCIRCUITPY_WIFI_PASSWORD = \"", _dq(pw), "\"\n"),
        "circuitpy_web": ("CIRCUITPY_WEB_API_PASSWORD = \"", _dq(pw), "\"\n"),
        "autounattend_admin": ("<UserAccounts>\n  <AdministratorPassword>\n    <Value>", _xml(pw), "</Value>\n    <PlainText>true</PlainText>\n  </AdministratorPassword>\n</UserAccounts>\n"),
        "autounattend_autologon": ("<AutoLogon>\n  <Username>kiosk</Username>\n  <Enabled>true</Enabled>\n  <Password>\n    <Value>", _xml(pw),
                                   "</Value>\n    <PlainText>true</PlainText>\n  </Password>\n</AutoLogon>\n"),
        "ipxe_password": ("#!ipxe\nset username crew\nset password ", pw.replace(" ", ""), "\nchain http://boot.example.edu/menu.ipxe\n"),
        "bitbake_usermod": ("INHERIT += \"extrausers\"\nEXTRA_USERS_PARAMS = \"usermod -P '", pw.replace("'", ""), "' root;\"\n"),
        "moodle_dbpass": ("<?php  // Moodle configuration file\n$CFG->dbuser    = 'moodle';\n$CFG->dbpass    = '", pw.replace("'", "\\'"), "';\n"),
        "rasa_creds": ("# credentials.yml\nrest:\nsocketio:\n  user_message_evt: user_uttered\ntelegram:\n  access_token: \"", "%d:%s" % (r.randint(10 ** 9, 8 * 10 ** 9), _s(r, AN + "_-", 35)),
                       "\"\n  verify: \"crew_bot\"\n"),
        "blender_addon": ("prefs = bpy.context.preferences.addons[\"io_sketchfab_plugin\"].preferences\nprefs.api_token = \"", _hx(r, 32), "\"\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["lti_form", "lti_form", "vxml", "renpy", "rasa_endpoint", "moonraker", "split", "carrier", "carrier", "prose"])
    tok = _lti_jwt(r) if form == "lti_form" else _jwt(r)
    if form == "prose":
        _prose(r, doc, tok, "jwt", "prose", "token")
        return
    if form == "carrier":
        _carry(r, doc, "session token", tok, "jwt", "carrier")
        return
    if form == "split":
        # A long token split at its dots over adjacent literals.
        h, b, s = tok.split(".")
        name = r.choice(["py", "c"])
        lead, v, tail = {"py": ("TOKEN = (\"", h + ".\"\n         \"" + b + ".\"\n         \"" + s, "\")\n"),
                         "c": ("static const char *token =\n    \"", h + ".\"\n    \"" + b + ".\"\n    \"" + s, "\";\n")}[name]
        _put(doc, lead, v, "jwt", "split_" + name, tail)
        return
    lead, tail = {
        "lti_form": ("<form action=\"https://tool.example.edu/launch\" method=\"post\">\n  <input type=\"hidden\" name=\"id_token\" value=\"",
                     "\">\n  <input type=\"hidden\" name=\"state\" value=\"%s\">\n</form>\n" % _hx(r, 32)),
        "vxml": ("<var name=\"authToken\" expr=\"'", "'\"/>\n"),
        "renpy": ("define persistent.session_token = \"", "\"\n"),
        "rasa_endpoint": ("# endpoints.yml\naction_endpoint:\n  url: \"http://actions:5055/webhook\"\n  token: \"", "\"\n"),
        "moonraker": ("$ curl -H \"Authorization: Bearer ", "\" http://printer.local:7125/printer/info\n"),
    }[form]
    _put(doc, lead, tok, "jwt", form, tail)


def _crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def _paperkey(r):
    fpr = _rb(r, 20)
    secret = b"\x00" + b"\x01\x00" + _rb(r, 32) + _rb(r, 2)       # s2k usage 0, an MPI of the secret, its checksum
    sub = b"\x00" + b"\x01\x00" + _rb(r, 32) + _rb(r, 2)
    data = b"\x00" + b"\x04" + fpr + len(secret).to_bytes(2, "big") + secret + b"\x04" + _rb(r, 20) + len(sub).to_bytes(2, "big") + sub
    lines = []
    for k in range(0, len(data), 20):
        chunk = data[k:k + 20]
        lines.append("%3d: %s %06X" % (k // 20 + 1, " ".join("%02X" % b for b in chunk), _crc24(chunk)))
    lines.append("%3d: %06X" % (len(lines) + 1, _crc24(data)))
    return fpr.hex().upper(), lines


def i_private_key(r, doc, m):
    form = r.choice(["cardano", "subkey", "sui_bech32", "sui_keystore", "near", "aptos_hex", "aptos_aip80", "nix_cache", "monero", "jwk_okp",
                     "jwk_ec", "cosign", "paperkey", "pem_c", "pem_pascal", "pem_vba", "carrier", "prose"])
    if form == "cardano":
        kind = r.choice(["Payment", "Stake"])
        _seq(doc, form, ["{\n    \"type\": \"%sSigningKeyShelley_ed25519\",\n    \"description\": \"%s Signing Key\",\n    \"cborHex\": \"" % (kind, kind),
                         ("5820" + _hx(r, 64), "private_key"), "\"\n}\n"])
        return
    if form == "subkey":
        def build():
            seed, pub = _rb(r, 32).hex(), _rb(r, 32)
            return ["$ subkey generate --scheme sr25519\nSecret Key URI `0x", (seed, "private_key"), "` is account:\n  Network ID:        substrate\n  Secret seed:       0x",
                    (seed, "private_key"), "\n  Public key (hex):  0x", (pub.hex(), "look:substrate_public_key"), "\n  Account ID:        0x", (pub.hex(), "look:substrate_account_id"),
                    "\n  SS58 Address:      ", (_ss58(pub), "look:ss58_address"), "\n"]
        _seq2_clean(r, doc, form, build)
        return
    if form == "sui_bech32":
        # Bech32 under the human-readable part `suiprivkey`: the flag byte (0, Ed25519) and the 32-byte secret.
        _seq2(doc, form, ["$ sui keytool export --key-identity crew\n", (_bech32("suiprivkey", b"\x00" + _rb(r, 32)), "private_key"),
                          "\naddress: 0x", (_hx(r, 64), "look:sui_address"), "\n"])
        return
    if form == "sui_keystore":
        _seq(doc, form, ["# ~/.sui/sui_config/sui.keystore\n[\n  \"", (_b64(b"\x00" + _rb(r, 32)), "private_key"), "\",\n  \"",
                         (_b64(b"\x01" + _rb(r, 32)), "private_key"), "\"\n]\n"])
        return
    if form == "near":
        _seq2_clean(r, doc, form, lambda: ["{\"account_id\":\"crew.testnet\",\"public_key\":\"ed25519:", (_b58(_rb(r, 32)), "look:near_public_key"),
                                           "\",\"private_key\":\"ed25519:", (_b58(_rb(r, 64)), "private_key"), "\"}\n"])
        return
    if form in ("aptos_hex", "aptos_aip80"):
        aip = form == "aptos_aip80"
        _seq2_clean(r, doc, form, lambda: ["profiles:\n  default:\n    network: Testnet\n    private_key: \"" + ("ed25519-priv-0x" if aip else "0x"), (_hx(r, 64), "private_key"),
                                           "\"\n    public_key: \"" + ("ed25519-pub-0x" if aip else "0x"), (_hx(r, 64), "look:aptos_public_key"),
                                           "\"\n    account: ", (_hx(r, 64), "look:aptos_account"), "\n    rest_url: \"https://fullnode.testnet.aptoslabs.com\"\n"])
        return
    if form == "nix_cache":
        host = r.choice(["cache.example.edu-1", "rig-cache-2", "crew.example.games-1"])
        _seq2(doc, form, ["$ cat /etc/nix/secret-key\n%s:" % host, (_b64(_rb(r, 64)), "private_key"), "\n# nix.conf\ntrusted-public-keys = %s:" % host,
                          (_b64(_rb(r, 32)), "look:nix_public_key"), "\n"])
        return
    if form == "monero":
        kind = r.choice(["spendkey", "viewkey"])
        _seq2_clean(r, doc, form, lambda: ["[wallet 4%s]: %s\nsecret: " % (_s(r, B58, 5), kind), (_hx(r, 64), "private_key"), "\npublic: ",
                                           (_hx(r, 64), "look:monero_public_key"), "\n"])
        return
    if form == "jwk_okp":
        crv = r.choice(["Ed25519", "X25519"])
        _seq2(doc, form, ["{\"kty\":\"OKP\",\"crv\":\"%s\",\"kid\":\"%s\",\"x\":\"" % (crv, _hx(r, 8)), (_b64u(_rb(r, 32)), "look:jwk_public_x"), "\",\"d\":\"",
                          (_b64u(_rb(r, 32)), "private_key"), "\"}\n"])
        return
    if form == "jwk_ec":
        _seq2(doc, form, ["{\n  \"kty\": \"EC\",\n  \"crv\": \"P-256\",\n  \"use\": \"sig\",\n  \"x\": \"", (_b64u(_rb(r, 32)), "look:jwk_public_x"), "\",\n  \"y\": \"",
                          (_b64u(_rb(r, 32)), "look:jwk_public_y"), "\",\n  \"d\": \"", (_b64u(_rb(r, 32)), "private_key"), "\"\n}\n"])
        return
    if form == "cosign":
        blob = json.dumps({"kdf": {"name": "scrypt", "params": {"N": 65536, "r": 8, "p": 1}, "salt": _b64(_rb(r, 32))},
                           "cipher": {"name": "nacl/secretbox", "nonce": _b64(_rb(r, 24))}, "ciphertext": _b64(_rb(r, 157))}).encode()
        body = _b64(blob)
        pem = "-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n%s\n-----END ENCRYPTED SIGSTORE PRIVATE KEY-----" % "\n".join(body[k:k + 64] for k in range(0, len(body), 64))
        _put(doc, "$ cat cosign.key\n", pem, "private_key", form, "\n")
        return
    if form == "paperkey":
        fpr, lines = _paperkey(r)
        head = "# Secret portions of key %s\n# Base16 data extracted Mon Dec  7 01:%02d:%02d 2026\n# Created with paperkey 1.6 by David Shaw\n#\n" \
               "# Each base16 line ends with a CRC-24 of that line.\n# The entire block of data ends with a CRC-24 of the entire block of data.\n\n" % (fpr, r.randint(0, 59), r.randint(0, 59))
        first = lines[0]
        _put(doc, head + first[:5], first[5:] + "\n" + "\n".join(lines[1:]), "private_key", form, "\n")
        return
    if form == "carrier":
        _carry(r, doc, "signing key", "ed25519-priv-0x" + _hx(r, 64) if r.random() < 0.5 else _b64(b"\x00" + _rb(r, 32)), "private_key", "carrier")
        return
    if form == "prose":
        _prose(r, doc, _bech32("suiprivkey", b"\x00" + _rb(r, 32)), "private_key", "prose", "key")
        return
    lines, kind = _pem_body(r)
    if form == "pem_vba" and kind == "rsa":
        lines, kind = _pem_body(r)
        while kind == "rsa":
            lines, kind = _pem_body(r)
    if form == "pem_c":
        v = "\\n\"\n    \"".join(lines)
        _put(doc, "// main/certs.h (ESP-IDF)\nstatic const char server_key_pem[] =\n    \"", v, "private_key", "%s_%s" % (form, kind), "\\n\";\n")
        return
    if form == "pem_pascal":
        v = "'#13#10 +\n    '".join(lines)
        _put(doc, "const\n  SigningKey =\n    '", v, "private_key", "%s_%s" % (form, kind), "';\n")
        return
    v = "\" & vbLf & _\n    \"".join(lines)
    _put(doc, "Const SIGNING_KEY As String = \"", v, "private_key", "%s_%s" % (form, kind), "\"\n")


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["ntrip", "ntrip_noscheme", "str2str", "svn", "db2", "teradata", "iax2_dial", "moonraker_git", "ipxe_chain", "circuitpy_mip",
                     "carrier", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "ntrip://crew:", pw, "url_credentials", "prose_" + lang, "@caster.example.survey:2101/RTCM3 " + tail + "\n")
        return
    if form == "carrier":
        f, lead, tail, esc = _carrier(r, "caster url")
        pre, post = esc("ntrip://rover:"), esc("@caster.example.survey:2101/VRS_RTCM32")
        _put(doc, lead + pre, esc(pw), "url_credentials", "carrier_" + f, post + tail)
        return
    if form == "iax2_dial":
        _put(doc, "[outbound]\nexten => _9X.,1,Dial(IAX2/crew:", pw.replace("/", "").replace("@", "").replace(",", ""), "url_credentials", form,
             "@pbx.example.coop/${EXTEN:1})\n")
        return
    lead, tail = {
        "ntrip": ("$ rtkrcv -s -o rover.conf   # inpstr1 = ntrip://rover:", "@caster.example.survey:2101/VRS_RTCM32\n"),
        "ntrip_noscheme": ("inpstr1-type      =ntripcli\ninpstr1-path      =rover:", "@caster.example.survey:2101/MOUNT%d\n" % r.randint(1, 99)),
        "str2str": ("$ str2str -in ntrip://survey:", "@rtk2go.example.net:2101/CREW01 -out tcpsvr://:9000\n"),
        "svn": ("$ svn checkout svn://writer:", "@svn.example.games/vn/trunk vn\n"),
        "db2": ("SQLALCHEMY_DATABASE_URI = \"db2+ibm_db://db2inst1:", "@db.example.edu:50000/LMS\"\n"),
        "teradata": ("engine = create_engine(\"teradatasql://dbc:", "@td.example.edu/?database=lms\")\n"),
        "moonraker_git": ("[update_manager crew_macros]\ntype: git_repo\npath: ~/crew_macros\norigin: https://crew:", "@git.example.org/crew/macros.git\n"),
        "ipxe_chain": ("#!ipxe\nchain http://crew:", "@boot.example.edu/menu.ipxe\n"),
        "circuitpy_mip": (">>> mip.install(\"https://bench:", "@git.example.org/crew/sensors/package.json\")\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


def i_record(r, doc, m):
    """Records that hold values of several classes at once."""
    form = r.choice(["autounattend_full", "cif_head", "cabrillo_head", "ssml_confirm", "escpos_receipt"])
    e = _email(r)
    p, cc = _phone(r)
    if form == "autounattend_full":
        _seq(doc, form, ["<component name=\"Microsoft-Windows-Shell-Setup\">\n  <RegisteredOwner>", (e, "email"), "</RegisteredOwner>\n  <UserAccounts><AdministratorPassword><Value>",
                         (_xml(_pw(r)), "api_key"), "</Value><PlainText>true</PlainText></AdministratorPassword></UserAccounts>\n</component>\n"
                         "<component name=\"Microsoft-Windows-TCPIP\">\n  <IpAddress wcm:action=\"add\" wcm:keyValue=\"1\">", (_v4_private(r), "ipv4"),
                         "/24</IpAddress>\n  <IpAddress wcm:action=\"add\" wcm:keyValue=\"2\">", (_v6(r), "ipv6"), "/64</IpAddress>\n</component>\n"])
        return
    if form == "cif_head":
        _seq(doc, form, ["data_crew_%d\n_publ_contact_author_name         'Kallio, Aino'\n_publ_contact_author_email        " % r.randint(1, 999), (e, "email"),
                         "\n_publ_contact_author_phone        '", (p, "phone"), "'\n_publ_contact_author_fax          '", (PHONES[cc](r), "phone"), "'\n"])
        return
    if form == "cabrillo_head":
        _seq(doc, form, ["START-OF-LOG: 3.0\nCALLSIGN: OX3AB\nCONTEST: CQ-WW-RTTY\nEMAIL: ", (e, "email"), "\nNAME: Aino Kallio\nADDRESS: Box 12\nADDRESS-CITY: Nuuk\nPHONE: ",
                         (p, "phone"), "\nSOAPBOX: operated remote from ", (_v4(r), "ipv4"), "\nEND-OF-LOG:\n"])
        return
    if form == "ssml_confirm":
        c, kind = _card(r, m)
        _seq(doc, form, ["<speak>\n  <s>We will charge the card <say-as interpret-as=\"digits\">", (c, "credit_card"),
                         "</say-as>.</s>\n  <s>We will text <say-as interpret-as=\"telephone\">", (p, "phone"), "</say-as>.</s>\n</speak>\n"])
        return
    i, _ = _iban(r)
    _seq(doc, form, ["p.text(\"REFUND TO IBAN ", (_iban_text(i), "iban"), "\\n\")\np.text(\"QUESTIONS: ", (e, "email"), " / ", (p, "phone"), "\\n\")\np.cut()\n"])


# ------------------------------------------------------------ look-alikes

def _mod11_2(base15):
    """ISO 7064 MOD 11-2 check character (ORCID, ISNI)."""
    total = 0
    for c in base15:
        total = (total + int(c)) * 2
    v = (12 - total % 11) % 11
    return "X" if v == 10 else str(v)


def _orcid(r):
    b = "0000000" + str(r.randint(1, 3)) + _d(r, 7)
    full = b + _mod11_2(b)
    return "-".join(full[k:k + 4] for k in range(0, 16, 4))


def _isni(r):
    b = "0000000" + str(r.randint(1, 4)) + _d(r, 7)
    full = b + _mod11_2(b)
    return " ".join(full[k:k + 4] for k in range(0, 16, 4))


def _cas(r):
    a = str(r.randint(50, 999999))
    b = "%02d" % r.randint(0, 99)
    ds = (a + b)[::-1]
    chk = sum((k + 1) * int(c) for k, c in enumerate(ds)) % 10
    return "%s-%s-%d" % (a, b, chk)


def _ihex(r):
    data = _rb(r, 16)
    addr = r.randint(0, 0xfff0) & 0xfff0
    rec = bytes([16, addr >> 8, addr & 0xff, 0]) + data
    return ":" + rec.hex().upper() + "%02X" % ((-sum(rec)) & 0xff)


def _srec(r):
    data = _rb(r, 16)
    addr = r.randint(0, 0xfff0) & 0xfff0
    rec = bytes([19, addr >> 8, addr & 0xff]) + data
    return "S1" + rec.hex().upper() + "%02X" % (~sum(rec) & 0xff)


KMS = ["W269N-WFGWX-YVC9B-4J6C8-T83GX", "NPPR9-FWDCX-D2C8J-H872K-2YT43", "NW6C2-QMPVW-D7KKK-3GKT6-VCFB2", "NRG8B-VKK3Q-CXVCJ-9G2XF-6Q84J",
       "WX4NM-KYWYW-QJJR4-XV3QB-6VM33", "VDYBN-27WPP-V4HQT-9VMD4-VMK7H"]
BCRYPT = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def i_look(r, doc, m):
    q = r.randint
    hx = lambda n: _hx(r, n)
    kind = r.choice([
        # Survey rigs.
        "rinex_pos", "ecef", "sourcetable", "latlon", "grid_locator", "dmr_id",
        # Science files.
        "cif_cell", "ccdc", "orcid", "isni", "cas", "inchikey", "rsid", "vcf_record",
        # E-books and learning platforms.
        "epubcfi", "epub_uid", "lti_signature", "lti_nonce", "moodle_course",
        # Maker benches.
        "kicad_uuid", "kicad_footprint", "klipper_serial", "gcode_move", "intel_hex", "srecord", "mac", "version_build",
        # Voice and games.
        "dtmf", "ssml_prosody", "ink_divert", "renpy_sdk",
        # Installers.
        "kms_key", "win_sid_short",
        # Wallets and keys that are public.
        "cardano_vkey", "cardano_addr", "ss58", "sui_address", "nix_public", "jwk_public", "aptos_account",
        # Hashes and reverse names.
        "bcrypt", "yescrypt", "ip6_arpa",
        # Money, ids and URLs that are not values.
        "masked_ssn", "masked_card", "bad_iban", "url_placeholder", "url_user_only",
    ])
    lead, make, tail = {
        "rinex_pos": ("  ", lambda: "%14.4f%14.4f%14.4f" % (r.uniform(2e6, 5e6), r.uniform(-9e5, 9e5), r.uniform(3e6, 6e6)), "                  APPROX POSITION XYZ\n"),
        "ecef": ("ECEF: ", lambda: "%.4f, %.4f, %.4f" % (r.uniform(2e6, 5e6), r.uniform(-9e5, 9e5), r.uniform(3e6, 6e6)), "\n"),
        "sourcetable": ("", lambda: "STR;CREW%02d;Torshavn;RTCM 3.2;1004(1),1005(10),1077(1);2;GPS+GLO+GAL;SNIP;FRO;%.2f;%.2f;1;0;sNTRIP;none;B;N;%d;" % (
            q(1, 99), r.uniform(61, 63), r.uniform(-8, -6), q(2400, 9600)), "\n"),
        "latlon": ("base station at ", lambda: "%.4f° N, %.4f° W" % (r.uniform(60, 70), r.uniform(5, 55)), "\n"),
        "grid_locator": ("QTH locator ", lambda: r.choice("GHIJKL") + r.choice("NOPQR") + "%d%d" % (q(0, 9), q(0, 9)) + r.choice(LOW[:24]) + r.choice(LOW[:24]), "\n"),
        "dmr_id": ("DMR ID ", lambda: "%d" % q(2000000, 7999999), "\n"),
        "cif_cell": ("_cell_length_a                    ", lambda: "%d.%04d(%d)" % (q(4, 30), q(0, 9999), q(1, 9)), "\n"),
        "ccdc": ("CCDC ", lambda: "%d" % q(1000000, 2499999), " contains the supplementary crystallographic data\n"),
        "orcid": ("https://orcid.org/", lambda: _orcid(r), "\n"),
        "isni": ("ISNI ", lambda: _isni(r), "\n"),
        "cas": ("CAS RN ", lambda: _cas(r), "\n"),
        "inchikey": ("InChIKey=", lambda: _s(r, UP, 14) + "-" + _s(r, UP, 8) + "SA-" + r.choice("NMOP"), "\n"),
        "rsid": ("dbSNP ", lambda: "rs%d" % q(100000, 999999999), "\n"),
        "vcf_record": ("", lambda: "chr%d\t%d\trs%d\tA\tG\t%d\tPASS\tDP=%d" % (q(1, 22), q(10000, 249000000), q(10000, 99999999), q(20, 99), q(5, 300)), "\n"),
        "epubcfi": ("bookmark: ", lambda: "epubcfi(/6/%d[chap%02dref]!/4[body01]/%d[para%02d]/3:%d)" % (q(2, 40) * 2, q(1, 30), q(1, 40) * 2, q(1, 60), q(0, 400)), "\n"),
        "epub_uid": ("<dc:identifier id=\"uid\">urn:uuid:", lambda: _uuid(r), "</dc:identifier>\n"),
        "lti_signature": ("oauth_signature=", lambda: _b64(_rb(r, 20)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"), "&oauth_signature_method=HMAC-SHA1\n"),
        "lti_nonce": ("oauth_nonce=", lambda: _s(r, AN, 32), "&oauth_timestamp=%d\n" % q(1_760_000_000, 1_800_000_000)),
        "moodle_course": ("https://lms.example.edu/course/view.php?id=", lambda: "%d" % q(100, 99999), "&section=%d\n" % q(0, 12)),
        "kicad_uuid": ("    (uuid \"", lambda: _uuid(r), "\")\n"),
        "kicad_footprint": ("    (property \"Footprint\" \"", lambda: r.choice(["Resistor_SMD:R_0603_1608Metric", "Capacitor_SMD:C_0805_2012Metric",
                                                                                   "Package_QFP:LQFP-48_7x7mm_P0.5mm", "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical"]), "\")\n"),
        "klipper_serial": ("[mcu]\nserial: ", lambda: "/dev/serial/by-id/usb-Klipper_%s_%s-if00" % (r.choice(["stm32f446xx", "rp2040", "stm32h723xx"]), hx(24).upper()), "\n"),
        "gcode_move": ("", lambda: "G1 X%.3f Y%.3f E%.5f F%d" % (r.uniform(0, 250), r.uniform(0, 210), r.uniform(0, 2), r.choice([1200, 1800, 3000, 7200])), "\n"),
        "intel_hex": ("", lambda: _ihex(r), "\n"),
        "srecord": ("", lambda: _srec(r), "\n"),
        "mac": ("ESP32 MAC: ", lambda: "%s:%02X:%02X:%02X" % (r.choice(["24:6F:28", "30:AE:A4", "A4:CF:12", "84:F3:EB"]), q(0, 255), q(0, 255), q(0, 255)), "\n"),
        "version_build": ("firmware ", lambda: "v%d.%d.%d-rc.%d+g%s" % (q(0, 3), q(0, 20), q(0, 30), q(1, 9), hx(7)), "\n"),
        "dtmf": ("SendDTMF(", lambda: "ww%d#%d" % (q(100, 999), q(1000, 9999)), ")\n"),
        "ssml_prosody": ("<prosody rate=\"", lambda: "%d%%\" pitch=\"+%dst" % (q(80, 130), q(0, 6)), "\">\n"),
        "ink_divert": ("-> ", lambda: "chapter_%d.scene_%d" % (q(1, 20), q(1, 30)), "\n"),
        "renpy_sdk": ("$ ./", lambda: "renpy-%d.%d.%d-sdk/renpy.sh" % (q(7, 8), q(0, 4), q(0, 9)), " . distribute\n"),
        "kms_key": ("<ProductKey><Key>", lambda: r.choice(KMS), "</Key></ProductKey>  <!-- generic KMS client key -->\n"),
        "win_sid_short": ("well-known SID ", lambda: r.choice(["S-1-5-32-544", "S-1-5-18", "S-1-5-32-545", "S-1-5-19", "S-1-1-0"]), "\n"),
        "cardano_vkey": ("{\n    \"type\": \"PaymentVerificationKeyShelley_ed25519\",\n    \"description\": \"Payment Verification Key\",\n    \"cborHex\": \"",
                         lambda: "5820" + hx(64), "\"\n}\n"),
        "cardano_addr": ("payment address: ", lambda: _bech32("addr_test", b"\x00" + _rb(r, 56)), "\n"),
        "ss58": ("SS58 Address: ", lambda: _ss58(_rb(r, 32)), "\n"),
        "sui_address": ("active address: 0x", lambda: hx(64), "\n"),
        "nix_public": ("trusted-public-keys = cache.nixos.org-1:6NCHdD59X431o0gWypbMrAURkbJ16ZPMQFGspcDShjY= crew-cache-1:", lambda: _b64(_rb(r, 32)), "\n"),
        "jwk_public": ("{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"", lambda: _b64u(_rb(r, 32)), "\"}\n"),
        "aptos_account": ("account: ", lambda: hx(64), "\n"),
        "bcrypt": ("crew:", lambda: "$2b$12$" + _s(r, BCRYPT, 53), "\n"),
        "yescrypt": ("crew:", lambda: "$y$j9T$" + _s(r, BCRYPT, 22) + "$" + _s(r, BCRYPT, 43), ":20429:0:99999:7:::\n"),
        "ip6_arpa": ("PTR ", lambda: ".".join(reversed(hx(32))) + ".ip6.arpa.", "\n"),
        "masked_ssn": ("SSN on file: ", lambda: r.choice(["***-**-%04d", "XXX-XX-%04d", "•••-••-%04d"]) % q(1, 9999), "\n"),
        "masked_card": ("charged ", lambda: r.choice(["%06d******%04d" % (q(400000, 559999), q(0, 9999)), "•••• •••• •••• %04d" % q(0, 9999), "✱✱✱✱ %04d" % q(0, 9999)]), "\n"),
        "bad_iban": ("IBAN (returned, check failed): ", lambda: _bad_iban(r), "\n"),
        "url_placeholder": ("inpstr1-path      =", lambda: r.choice(["${NTRIP_USER}:${NTRIP_PASS}@caster.example.survey:2101/MOUNT", "<user>:<password>@caster.example.survey:2101/MOUNT",
                                                                   "svn://USER:PASSWORD@svn.example.games/vn"]), "\n"),
        "url_user_only": ("", lambda: r.choice(["svn://writer@svn.example.games/vn/trunk", "ntrip://rover@caster.example.survey:2101/MOUNT",
                                                 "https://crew@git.example.org/crew/macros.git"]), "\n"),
    }[kind]
    doc.t(lead)
    _look(r, doc, make, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt, i_private_key, i_url, i_record]

FILLERS = ["\n", "\n\n", "END-OF-LOG:\n", "</speak>\n", "; end of gcode\n", "#!ipxe\n", "</unattend>\n", "---\n"]


def heldout23_doc(r, doc, m):
    """One text of the twenty-fourth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
