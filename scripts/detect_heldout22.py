"""The twenty-second held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout22`; not run on its own.

A twenty-third template family, written and committed before any detector
change of the round that tunes on heldout21, from real-world formats and
not from the detectors' code: the session that wrote it did not read the
detectors (`crates/tracegate/src/redact`, `finding*`), their
documentation, the detection sections of benches/README.md or any
split's report or spans; it read `detect_corpus.py`, `detect_values.py`,
`detect_score.py` (how a span is scored) and `detect_heldout21.py` for
the interface, and grepped the twenty-one earlier families only for
surroundings, value shapes, separators, digit scripts, provider prefixes,
URL schemes and languages to keep clear of. Only its summary and
per-class table are looked at until the round's final measurement.

Surroundings that no other family writes, most from print rooms, radio
and captioning, theatre show control, clinical lab instruments, music
engraving, CVs and letters typeset in LaTeX, init systems, the Windows
registry, blockchain and peer-to-peer nodes, home automation and LoRaWAN
radios, small mail and database servers and backups: CUPS
`printers.conf` and `DeviceURI`, PJL `@PJL COMMENT`, PostScript DSC
comments and `show` strings (`\\(`, `\\)` escapes), Icecast
`icecast.xml`, Liquidsoap settings and outputs, PLS playlists, HLS
`.m3u8` keys, WebVTT cues (`&amp;`), TTML paragraphs, `oscsend` and ETC
Eos OSC paths, QLab AppleScript, ASTM E1394 (LIS2-A2) header, patient,
order and comment records with the ASTM escapes (`&F&`, `&S&`, `&R&`,
`&E&`), LilyPond `\\header` and `\\markup`, MusicXML identification,
moderncv `\\phone`/`\\email`/`\\extrainfo` and letters with LaTeX
escapes (`\\_`, `\\%`, `\\#`, `\\&`, ties `~`, thin spaces `\\,`, en
dashes `--`), systemd `SetCredential=` (with `%%` and C escapes),
`Environment=`, `IPAddressAllow=` and templated unit names, `.reg` files
(`\\\\`, `\\"`), ClickHouse `users.xml`, `cqlshrc`, pgbouncer
`userlist.txt`, Node-RED `settings.js` and flows, openHAB service
configs, Zigbee2MQTT YAML (single quotes doubled), deCONZ REST output,
LMIC C arrays, OpenVPN `setenv` and static keys, direnv `.envrc`
(`'\\''`), chezmoi templates, CometBFT `config.toml`,
`priv_validator_key.json` and `node_key.json`, IPFS (kubo) config and
multiaddrs, Tailscale state, Bitcoin Core descriptors and Electrum
keystores, Tink keysets, Dovecot `passwd-file`, OpenSMTPD tables, cron
`MAILTO`, Borg, rsync and davfs2 secrets, HAProxy userlists, Org-mode
properties, SQL inserts (quotes doubled), form-encoded bodies (`+` for a
space), quoted-printable bodies (`=` soft line breaks inside a value),
Java `.properties` line continuations, XML with `&#xD;&#xA;`, PowerShell
here-strings, Python bytes reprs, JSON `\\u00a0` escapes, Python `\\x20`
and C `\\040` escapes, HTML `&nbsp;`, `&#160;`, `&thinsp;`, `&#8209;`,
`&hyphen;`, `&#45;` and fully entity-encoded addresses; prose in
Shughni, Wakhi, Yaghnobi, Sarikoli, Nauruan, Rotuman, Rarotongan, Norfuk,
Pitkern, Drehu, Wallisian, Futunan, Marquesan, Carolinian, Ulithian,
Woleaian, Mortlockese, Pingelapese, Mokilese, Satawalese, Nukuoro and
Kapingamarangi (short phrases written by the session, only roughly
idiomatic; in most of these languages only approximations).

Values in shapes the earlier families did not write as such a set: cards
of Hipercard, Cabal, Naranja, Carnet, Humo, UzCard, Napas (16 and 19),
Belkart, ArCa, Prostir, Bancontact (17 and 19), InterPayment,
InstaPayment and LankaPay beside the common brands, written in Kawi, Nag
Mundari, Kirat Rai, Sunuwar, Gurung Khema, Garay and Ol Onal digits and
in outlined digits, grouped by a two-em dash, a katakana-hiragana double
hyphen, a double hyphen, an oblique hyphen, a heavy minus, a bullet
operator, a bullet, a white bullet, a z notation spot, a Canadian
syllabics hyphen or a hyphen with diaeresis, or by an escape of the
container (LaTeX ties and thin spaces, HTML entities, JSON `\\u00a0`,
`\\u2009`, `\\u202f`, Python `\\x20`, C `\\040`, form `+`), split by a
quoted-printable soft break, in PostScript `show` strings, PJL job
names, Icecast metadata, ASTM comments and SQL; phones of Nauru, the
Cook Islands, Wallis and Futuna, Norfolk Island, Niue, Tokelau, Tuvalu,
Jamaica, Trinidad, Barbados, Saint Lucia, the British Virgin Islands,
Cayman, Bermuda, Tajikistan and Afghanistan, in the new digits and
separators, with LaTeX ties, HTML non-breaking hyphens, JSON escapes, in
ASTM patient records, Node-RED Twilio nodes, WebVTT cues and PostScript;
SSNs in the new digits and separators, with LaTeX en dashes, HTML and
JSON escapes of the hyphen, form-encoded, under a pdftotext form label,
in ASTM patient records and SQL inserts, and in context phrases of the
Micronesian languages; IBANs of Oman, Honduras, Mongolia, Nicaragua,
Russia, Somalia, the Falklands, Djibouti, Burundi, Mauritania, the
Dominican Republic and Costa Rica (and the common ones) in the same
separators and escapes; provider tokens no family wrote (Dropbox `sl.u.`
tokens, Doppler personal, CLI, service-account and SCIM tokens,
Backblaze B2 key ids and application keys, Google Cloud Storage HMAC ids
and secrets, Zhipu `id.secret` keys, Baidu Qianfan `bce-v3/ALTAK-` keys,
Axiom personal tokens, ReadMe `rdme_` keys), passwords and secrets in
the tools' own syntax (Icecast, Liquidsoap, ClickHouse, cqlshrc,
pgbouncer (plain and `md5`), Node-RED `credentialSecret`, openHAB,
Zigbee2MQTT `network_key` as a decimal list, LMIC `APPKEY` as a C array,
HAProxy, Dovecot `{PLAIN}`, Borg, rsync, davfs2, systemd credentials,
Winlogon `DefaultPassword`, AES Tink keysets); private keys as CometBFT
validator and node keys, an IPFS `PrivKey`, a Tailscale `privkey:`,
BIP32 `tprv`/`vprv`/`yprv`/`zprv` keys (in descriptors and Electrum
keystores), a Tink ECDSA keyset, an OpenVPN static key, PEMs (Ed25519,
X25519, P-384, RSA PKCS#8) form-encoded, in Java properties, in XML with
`&#xD;&#xA;`, in systemd with `\\n`, in PowerShell here-strings and as a
Python bytes repr of the DER; JWTs as five-part JWEs, unsecured (`alg:
none`, empty signature), in HLS key URIs, Liquidsoap headers, systemd,
the registry and Node-RED; IPv4 in CUPS URIs, Art-Net and sACN setups,
`oscsend`, Icecast, Liquidsoap, ASTM-over-TCP settings, systemd, the
registry (comma lists), Tailscale CGNAT addresses, CometBFT peers, IPFS
multiaddrs, HAProxy, defanged (`[.]`) and regex-escaped (`\\.`); IPv6 in
multiaddrs, SMTP address literals (`[IPv6:...]`), Postfix logs, CUPS
URIs, `ip -6 addr` output, Tailscale ULA addresses, CometBFT peers, the
registry and systemd; URLs with a password for `ipps`, `smb`, `icecast`,
`mqtts`, `nntps`, `ircs`, `b2`, `davs`, `ftpes`, `webcal`, `sip` and PLS
`http` streams.

Look-alikes no family wrote as such a set: printer serials and IPP
UUIDs, DSC bounding boxes, SMPTE timecodes, WebVTT cue timings, ISRCs,
EIDRs, ISANs, ISWCs, ISMNs, DMX addresses, Art-Net universes, OSC paths,
MIDI show control strings, LOINC codes, lab accessions shaped like SSNs
but with an area or group no SSN has, specimen barcodes, reference
ranges, Windows SIDs and build numbers, registry GUIDs and dwords,
systemd unit instances (`name@instance.service`), machine ids, CometBFT
validator addresses, node ids and block hashes, IPFS CIDs and peer ids,
BIP32 `tpub`/`vpub`/`ypub`/`zpub` public keys and derivation paths,
Tailscale `nodekey:` public keys, Tink public keysets, Zigbee IEEE
addresses, extended PAN ids and deCONZ unique ids (eight colon groups),
LoRaWAN DevEUIs, old Node-RED node ids (dotted hex), Dovecot `{SSHA512}`
hashes, ClickHouse password hashes, Cassandra tokens, Borg archive ids,
masked card numbers, SEPA creditor ids, IBANs with a wrong check, BICs,
source-map data URIs (`eyJ`), Rust paths that read as hex (`fade::add`),
spec section numbers, URLs with placeholders for the password, and URLs
with a user and no password (and the user and host of an `ssh://` or
`rsync://` URL). A look-alike any run of whose digits (solid, or any run
of groups split by one space, dash, dot or slash) of 12 to 19 digits
passes Luhn is drawn again (heldout20's check, copied here with its
helpers).

It reuses only the Luhn digit of `detect_corpus.py` and the small value
makers of `detect_values.py`. Its texts are drawn from their own seed
(`detect_corpus.py` offsets the split's seed by 22022). It is the
project's own, like the others.
"""
import base64
import hashlib
import json
import urllib.parse

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, with_check, family_doc

LOWD = LOW + D
UPD = UP + D
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "abcdefghijklmnopqrstuvwxyz234567"

# Decimal digits of scripts no family wrote values in (each block's zero):
# Kawi and Nag Mundari (Unicode 15), Kirat Rai, Sunuwar, Gurung Khema,
# Garay, Ol Onal and the outlined digits (Unicode 16).
ZERO = {"kawi": 0x11F50, "nagm": 0x1E4F0, "krai": 0x16D70, "sunu": 0x11BF0, "gukh": 0x16130, "gara": 0x10D40, "onao": 0x1E5F1,
        "outl": 0x1CCF0}


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


def _b58(raw):
    n = int.from_bytes(raw, "big")
    out = ""
    while n:
        n, k = divmod(n, 58)
        out = B58[k] + out
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + out


def _b58check(raw):
    return _b58(raw + hashlib.sha256(hashlib.sha256(raw).digest()).digest()[:4])


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
    """Fixed-format text around a value, drawn again until no run of its
    digits passes as a card."""
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


def _vtt(s):
    return s.replace("&", "&amp;").replace("<", "&lt;")


def _ps(s):
    """A PostScript string: backslash, parentheses escaped."""
    return "".join("\\" + c if c in "\\()" else c for c in s)


def _astm(s):
    """ASTM E1394's escapes: field `|`, repeat `\\`, component `^`, escape `&`."""
    return "".join({"&": "&E&", "|": "&F&", "\\": "&R&", "^": "&S&"}.get(c, c) for c in s)


def _tex(s):
    """LaTeX body text: the special characters escaped."""
    return "".join({"\\": "\\textbackslash{}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}"}.get(c, "\\" + c if c in "#$%&_{}" else c) for c in s)


def _sd(s):
    """A systemd value: `%` doubled (specifiers), backslash doubled (C escapes)."""
    return s.replace("\\", "\\\\").replace("%", "%%")


def _cstr(s):
    return s.replace("\\", "\\\\").replace("\"", "\\\"")


def _yq(s):
    return s.replace("'", "''")


def _shq(s):
    return s.replace("'", "'\\''")


def _form(s):
    return urllib.parse.quote_plus(s, safe="")


def _ident(s):
    return s


# ------------------------------------------------------------ value makers

def _card(r, m):
    """A card of a national or less common scheme, with its Luhn digit."""
    kind = r.choice(["hipercard", "cabal", "naranja", "carnet", "humo", "uzcard", "napas16", "napas19", "belkart", "arca", "prostir",
                     "bancontact17", "bancontact19", "interpayment", "instapayment", "lankapay", "visa", "mc", "amex", "discover65",
                     "jcb", "unionpay"])
    prefix, n = {
        "hipercard": ("606282", 16),
        "cabal": (r.choice(["604201", "604209", "589657"]), 16),
        "naranja": ("589562", 16),
        "carnet": (r.choice(["506199", "506205", "506221", "639559"]), 16),
        "humo": ("9860" + _d(r, 2), 16),
        "uzcard": ("8600" + _d(r, 2), 16),
        "napas16": ("9704" + _d(r, 2), 16),
        "napas19": ("9704" + _d(r, 2), 19),
        "belkart": ("9112", 16),
        "arca": ("9051", 16),
        "prostir": ("9804", 16),
        "bancontact17": ("6703", 17),
        "bancontact19": ("6703", 19),
        "interpayment": ("636", 16),
        "instapayment": (str(r.randint(637, 639)), 16),
        "lankapay": ("357111", 16),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover65": ("65", 16),
        "jcb": (str(r.randint(3528, 3589)), 16),
        "unionpay": ("62" + _d(r, 4), 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    c = body + m.luhn_digit(body)
    assert _luhn_ok(c) and len(c) == n, (kind, c)
    return c, kind


def _groups(c):
    """How the number is grouped when written: 4-6-5 for 15, fours
    otherwise (the odd digits of 17 and 19 in a last short group)."""
    if len(c) == 15:
        return [c[:4], c[4:10], c[10:]]
    return [c[k:k + 4] for k in range(0, len(c), 4)]


SEPS = {"two_em_dash": "\u2e3a", "kana_double_hyphen": "\u30a0", "double_hyphen": "\u2e40", "oblique_hyphen": "\u2e5d",
        "heavy_minus": "\u2796", "bullet_op": "\u2219", "bullet": "\u2022", "white_bullet": "\u25e6", "z_spot": "\u2981",
        "cans_hyphen": "\u1400", "hyphen_diaeresis": "\u2e1a"}

# Separators written by an escape of the container.
ESC_SEPS = {"tex_tie": "~", "tex_thin": "\\,", "html_nbsp": "&nbsp;", "html_160": "&#160;", "html_thinsp": "&thinsp;",
            "html_nbhyphen": "&#8209;", "json_nbsp": "\\u00a0", "json_thin": "\\u2009", "json_nnbsp": "\\u202f", "c_x20": "\\x20",
            "c_octal": "\\040", "form_plus": "+"}


def _qp_split(s, r):
    """`s` broken by a quoted-printable soft line break (`=` and a newline)."""
    k = r.randint(2, len(s) - 2)
    return s[:k] + "=\n" + s[k:]


IBAN_SHAPES = {
    "OM": lambda r: _d(r, 3) + _s(r, UPD, 16),
    "HN": lambda r: _s(r, UP, 4) + _d(r, 20),
    "MN": lambda r: _d(r, 4) + _d(r, 12),
    "NI": lambda r: _s(r, UP, 4) + _d(r, 20),
    "RU": lambda r: "04" + _d(r, 7) + _d(r, 5) + _d(r, 15),
    "SO": lambda r: _d(r, 4) + _d(r, 3) + _d(r, 12),
    "FK": lambda r: _s(r, UP, 2) + _d(r, 12),
    "DJ": lambda r: "00010" + _d(r, 5) + _d(r, 11) + _d(r, 2),
    "BI": lambda r: "10000" + _d(r, 5) + _d(r, 11) + _d(r, 2),
    "MR": lambda r: "000" + _d(r, 2) + _d(r, 5) + _d(r, 11) + _d(r, 2),
    "DO": lambda r: _s(r, UP, 4) + _d(r, 20),
    "CR": lambda r: "0" + _d(r, 3) + _d(r, 14),
    "DE": lambda r: _d(r, 18),
    "FR": lambda r: _d(r, 10) + _s(r, UPD, 11) + _d(r, 2),
    "NL": lambda r: _s(r, UP, 4) + _d(r, 10),
    "ES": lambda r: _d(r, 20),
}


def _iban(r):
    c = r.choice(sorted(IBAN_SHAPES))
    return with_check(c, IBAN_SHAPES[c](r)), c


def _iban_text(i, sep=" "):
    return sep.join(i[k:k + 4] for k in range(0, len(i), 4))


def _bad_iban(r):
    i, c = _iban(r)
    return i[:2] + "%02d" % ((int(i[2:4]) + r.randint(1, 9)) % 97 + 2) + i[4:]


# Phones, international, in the country's own grouping.
PHONES = {
    "nr": lambda r: "+674 %s %s" % (r.choice(["555", "556", "557", "558"]), _d(r, 4)),
    "ck": lambda r: "+682 %s %s" % (r.choice("2578") + _d(r, 1), _d(r, 3)),
    "wf": lambda r: "+681 %s %s %s" % (r.choice(["72", "82"]), _d(r, 2), _d(r, 2)),
    "nf": lambda r: "+672 3 %s %s" % (r.choice("5") + _d(r, 1), _d(r, 3)),
    "nu": lambda r: "+683 %s" % (r.choice("4") + _d(r, 3)),
    "tk": lambda r: "+690 %s" % (r.choice("7") + _d(r, 3)),
    "tv": lambda r: "+688 %s %s" % (r.choice(["90", "70"]), _d(r, 4)),
    "jm": lambda r: "+1 876 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4)),
    "tt": lambda r: "+1 868 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4)),
    "bb": lambda r: "+1 246 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4)),
    "lc": lambda r: "+1 758 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4)),
    "vg": lambda r: "+1 284 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4)),
    "ky": lambda r: "+1 345 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4)),
    "bm": lambda r: "+1 441 %s%s %s" % (_nz(r), _d(r, 2), _d(r, 4)),
    "tj": lambda r: "+992 %s %s %s" % (r.choice(["93", "90", "98", "55"]), _d(r, 3), _d(r, 4)),
    "af": lambda r: "+93 %s %s %s" % (r.choice(["70", "72", "78", "79"]), _d(r, 3), _d(r, 4)),
}


def _phone(r):
    cc = r.choice(sorted(PHONES))
    return PHONES[cc](r), cc


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([3, 8, 12, 17, 24, 31, 37, 41, 45, 49, 57, 63, 67, 72, 77, 84, 87, 91, 95, 103, 104, 112, 128,
                                      131, 137, 141, 147, 153, 156, 165, 170, 185, 193, 198, 206, 209, 213]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v4_private(r):
    return r.choice(["192.168.%d.%d" % (r.randint(0, 255), r.randint(2, 254)), "10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
                     "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254))])


def _v4_any(r):
    return _v4(r) if r.random() < 0.5 else _v4_private(r)


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a02:%s:%s:%s::%s" % (g(), g(), g(), g()),
        lambda: "2600:1f18:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),
        lambda: "2404:6800:%s:%s::%s" % (g(), g(), g()),
        lambda: "2001:67c:%s:%s::%s:%s" % (g(), g(), g(), g()),
        lambda: "fd7a:115c:a1e0::%s:%s" % (g(), g()),
        lambda: "2a0e:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),
        lambda: "fe80::%s:%sff:fe%s:%s" % (g(), "%02x" % r.randint(0, 255), "%02x" % r.randint(0, 255), g()),
        lambda: "2620:0:%s:%s::%s" % (g(), g(), g()),
    ])()


def _pw(r):
    return _tok(r, r.randint(12, 22)) + r.choice(["", "", "!", "#", "%", "+", "=", "-", "_", "~", "&", "^"])


def _url_pw(r):
    return _tok(r, r.randint(10, 22)) + r.choice(["", "", "", "%40", "%2F", "%23", "%3A", "-", "_", "~", "."])


def _jwt(r, alg=None, body=None):
    alg = alg or r.choice(["RS256", "ES256", "ES384", "PS512", "EdDSA", "HS256"])
    head = {"typ": "JWT", "alg": alg}
    if r.random() < 0.5:
        head["kid"] = r.choice([_hx(r, 16), _uuid(r), "show-%d" % r.randint(1, 9)])
    if body is None:
        iat = r.randint(1_760_000_000, 1_800_000_000)
        body = {"sub": r.choice([_uuid(r), "tech-%d" % r.randint(10, 999), "lis|" + _hx(r, 20)]),
                "iss": r.choice(["https://auth.example.theatre", "https://lis.example.lab/auth", "https://radio.example.fm/sso",
                                 "https://id.example.coop"]),
                "scope": r.choice(["stream:publish", "results:read", "cue:fire", "print:submit"]), "iat": iat,
                "exp": iat + r.choice([600, 3600, 86400])}
    n = {"RS256": 342, "PS512": 683, "ES256": 86, "ES384": 128, "EdDSA": 86, "HS256": 43}[alg]
    return "%s.%s.%s" % (_b64u(json.dumps(head, separators=(",", ":")).encode()),
                         _b64u(json.dumps(body, separators=(",", ":")).encode()), _s(r, B64URL, n))


def _jwe(r):
    alg = r.choice(["RSA-OAEP-256", "dir", "ECDH-ES+A256KW", "A256KW"])
    head = {"alg": alg, "enc": r.choice(["A256GCM", "A128CBC-HS256"])}
    if alg == "ECDH-ES+A256KW":
        head["epk"] = {"kty": "EC", "crv": "P-256", "x": _b64u(_rb(r, 32)), "y": _b64u(_rb(r, 32))}
    ek = {"RSA-OAEP-256": _b64u(_rb(r, 256)), "dir": "", "ECDH-ES+A256KW": _b64u(_rb(r, 40)), "A256KW": _b64u(_rb(r, 40))}[alg]
    return ".".join([_b64u(json.dumps(head, separators=(",", ":")).encode()), ek, _b64u(_rb(r, 12 if "GCM" in head["enc"] else 16)),
                     _b64u(_rb(r, r.randint(60, 400))), _b64u(_rb(r, 16))])


def _jwt_none(r):
    iat = r.randint(1_760_000_000, 1_800_000_000)
    return "%s.%s." % (_b64u(b'{"alg":"none","typ":"JWT"}'),
                       _b64u(json.dumps({"sub": "tech-%d" % r.randint(10, 999), "role": r.choice(["board-op", "lis-reader"]), "iat": iat},
                                        separators=(",", ":")).encode()))


# Private keys: DER heads of real structures, then the key's bytes.
def _der(r, kind):
    if kind == "ed25519":
        return bytes.fromhex("302e020100300506032b657004220420") + _rb(r, 32)
    if kind == "x25519":
        return bytes.fromhex("302e020100300506032b656e04220420") + _rb(r, 32)
    if kind == "p384":
        return bytes.fromhex("3081b6020100301006072a8648ce3d020106052b8104002204819e30819b0201010430") + _rb(r, 48) + \
            bytes.fromhex("a16403620004") + _rb(r, 96)
    return bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a30201000282010100") + _rb(r, 1217 - 38)


def _pem_lines(r, kind=None):
    kind = kind or r.choice(["ed25519", "x25519", "p384", "rsa", "rsa"])
    body = _b64(_der(r, kind))
    return ["-----BEGIN PRIVATE KEY-----"] + [body[k:k + 64] for k in range(0, len(body), 64)] + ["-----END PRIVATE KEY-----"], kind


BIP32 = {"tprv": "04358394", "vprv": "045f18bc", "yprv": "049d7878", "zprv": "04b2430c"}
BIP32_PUB = {"tpub": "043587cf", "vpub": "045f1cf6", "ypub": "049d7cb2", "zpub": "04b24746"}


def _bip32(r, version):
    raw = bytes.fromhex(version) + bytes([r.randint(0, 4)]) + _rb(r, 4) + _rb(r, 4) + _rb(r, 32)
    key = (b"\0" + _rb(r, 32)) if version in BIP32.values() else (bytes([r.choice([2, 3])]) + _rb(r, 32))
    return _b58check(raw + key)


# ------------------------------------------------------------ prose
#
# Short phrases written by the session, only roughly idiomatic (most of
# these languages it does not speak; the phrase is then an approximation).

PROSE = {
    "sgh": "Čīz, {} wi-rd navišt ",                           # Shughni
    "wbl": "Mehrbůni, {} ce navišt ",                          # Wakhi
    "yai": "Марҳамат, {} ба навишта ",                        # Yaghnobi
    "srh": "Mehrbåni, {} ab navišt ",                          # Sarikoli
    "nau": "Ekamawir omo, {} ",                               # Nauruan
    "rtm": "Noa'ia, 'ou ka {} ",                              # Rotuman
    "rar": "Kia orana, tata ki runga i {} ",                   # Rarotongan
    "pih": "Watawieh, rait et daun {} ",                       # Norfuk
    "pit": "Wut a way, rait et {} ",                           # Pitkern
    "dhv": "Olea, cainöj ngöne {} ",                          # Drehu
    "wls": "Malo te ma'uli, tohi ki {} ",                     # Wallisian
    "fud": "Malo le ma'uli, tusi ki {} ",                     # Futunan
    "mrq": "Kaoha nui, 'a pa'i i {} ",                        # Marquesan
    "cal": "Ifa usuwomw, ischiitiw {} ",                      # Carolinian
    "uli": "Ifa yaal, ischiy {} ",                            # Ulithian
    "woe": "Ifa yaal, ischiuw {} ",                           # Woleaian
    "mrl": "Ran annim, makkeei {} ",                          # Mortlockese
    "pif": "Kaselehlie, ntingihedi {} ",                      # Pingelapese
    "mkj": "Kaselel, ntingidi {} ",                           # Mokilese
    "stw": "Ran annim, mak ngeni {} ",                        # Satawalese
    "nkr": "Ma-ulu, tusi gi {} ",                             # Nukuoro
    "kpg": "Ma-uli, tusi gi {} ",                             # Kapingamarangi
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
    form = r.choice(["cups_info", "pjl_comment", "ps_dsc", "icecast_xml", "liquidsoap", "webvtt", "ttml", "osc_send", "qlab",
                     "astm_comment", "lilypond", "musicxml", "moderncv", "systemd_cred", "reg_file", "clickhouse_xml", "cqlshrc",
                     "nodered", "openhab_cfg", "z2m_yaml", "openvpn_setenv", "envrc", "chezmoi", "cometbft_toml", "borg_comment",
                     "sql_insert", "form_body", "org_property"])
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    camel = "".join(w.title() if k else w for k, w in enumerate(key.split("_")))
    pascal = camel[:1].upper() + camel[1:]
    up = key.upper()
    esc = {"ps_dsc": _ps, "icecast_xml": _xml, "webvtt": _vtt, "ttml": _xml, "astm_comment": _astm, "lilypond": _cstr, "musicxml": _xml,
           "moderncv": _tex, "systemd_cred": _sd, "reg_file": _cstr, "clickhouse_xml": _xml, "nodered": _cstr, "z2m_yaml": _yq,
           "openvpn_setenv": _cstr, "envrc": _shq, "chezmoi": _cstr, "cometbft_toml": _cstr, "borg_comment": _shq,
           "sql_insert": lambda s: s.replace("'", "''"), "form_body": _form, "liquidsoap": _cstr, "qlab": _cstr,
           "osc_send": _cstr}.get(form, _ident)
    lead, tail = {
        "cups_info": ("<Printer FrontDesk>\nUUID urn:uuid:%s\nInfo %s: " % (_uuid(r), label), "\nLocation Box office\nState Idle\n</Printer>\n"),
        "pjl_comment": ("\x1b%%-12345X@PJL JOB NAME = \"ticket-%d\"\n@PJL COMMENT \"%s: " % (r.randint(100, 999), label), "\"\n@PJL ENTER LANGUAGE = POSTSCRIPT\n"),
        "ps_dsc": ("%%!PS-Adobe-3.0\n%%%%Creator: (boxoffice)\n%%%%Title: (%s: " % label, ")\n%%EndComments\n"),
        "icecast_xml": ("<icecast>\n  <location>Studio B</location>\n  <%s>" % key, "</%s>\n</icecast>\n" % key),
        "liquidsoap": ("settings.crew.%s := \"" % key, "\"\n"),
        "webvtt": ("WEBVTT\n\n%02d:%02d:%02d.%03d --> %02d:%02d:%02d.%03d\n<v Host>%s: " % (0, r.randint(0, 59), r.randint(0, 59), r.randint(0, 999), 0,
                                                                                        r.randint(0, 59), r.randint(0, 59), r.randint(0, 999), label),
                   "</v>\n"),
        "ttml": ("<p begin=\"%d.%03ds\" end=\"%d.%03ds\" style=\"s1\">%s: " % (r.randint(0, 900), r.randint(0, 999), r.randint(901, 1800), r.randint(0, 999), label),
                 "</p>\n"),
        "osc_send": ("$ oscsend localhost 8000 /crew/%s s \"" % key, "\"\n"),
        "qlab": ("tell application id \"com.figure53.QLab.5\" to tell front workspace\n  set q name of cue \"%d\" to \"%s: " % (r.randint(1, 99), label),
                 "\"\nend tell\n"),
        "astm_comment": ("H|\\^&|||cobas^1^4.2|||||host|RSUPL^BATCH|P|1\r\nC|1|L|%s: " % label, "|G\r\nL|1|N\r\n"),
        "lilypond": ("\\version \"2.24.4\"\n\\header {\n  %s = \"" % camel, "\"\n}\n"),
        "musicxml": ("<identification>\n  <miscellaneous>\n    <miscellaneous-field name=\"%s\">" % key, "</miscellaneous-field>\n  </miscellaneous>\n</identification>\n"),
        "moderncv": ("\\documentclass[11pt]{moderncv}\n\\moderncvstyle{classic}\n\\extrainfo{%s: " % label, "}\n"),
        "systemd_cred": ("[Service]\nExecStart=/usr/bin/boxoffice-sync\nSetCredential=%s:" % key.replace("_", "-"), "\n"),
        "reg_file": ("Windows Registry Editor Version 5.00\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\BoxOffice\\Settings]\n\"%s\"=\"" % pascal, "\"\n"),
        "clickhouse_xml": ("<clickhouse>\n  <profiles><crew><%s>" % key, "</%s></crew></profiles>\n</clickhouse>\n" % key),
        "cqlshrc": ("; ~/.cassandra/cqlshrc\n[ui]\ncolor = on\n[crew]\n%s = " % key, "\n"),
        "nodered": ("module.exports = {\n    uiPort: process.env.PORT || 1880,\n    %s: \"" % camel, "\",\n};\n"),
        "openhab_cfg": ("# services/crew.cfg\ncrew:%s=" % camel, "\n"),
        "z2m_yaml": ("homeassistant: true\ndevice_options:\n  %s: '" % key, "'\n"),
        "openvpn_setenv": ("client\ndev tun\nsetenv %s \"" % up, "\"\n"),
        "envrc": ("# .envrc\nexport %s='" % up, "'\n"),
        "chezmoi": ("{{- $%s := \"" % camel, "\" -}}\n"),
        "cometbft_toml": ("# config.toml\nmoniker = \"crew-node-%d\"\n[crew]\n%s = \"" % (r.randint(1, 9), key), "\"\n"),
        "borg_comment": ("$ borg create --comment '%s: " % label, "' ::crew-{now}\n"),
        "sql_insert": ("INSERT INTO crew_notes (label, body) VALUES ('%s', '" % key, "');\n"),
        "form_body": ("POST /intake HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nkind=%s&%s=" % (key, key), "&submit=Send\n"),
        "org_property": ("* Contact\n:PROPERTIES:\n:%s: " % up, "\n:END:\n"),
    }[form]
    return form, lead, tail, esc


def _carry(r, doc, label, value, cls, form_prefix, claimed=True):
    f, lead, tail, esc = _carrier(r, label)
    _put(doc, lead, esc(value), cls, "%s_%s" % (form_prefix, f), tail, claimed)


# ------------------------------------------------------------ items

LOCALS = ["box.office", "foh_audio", "lis-night", "ilka.brandt", "stage_mgr", "cantor", "tech+rigging", "aroha.m", "desk_7", "pae.tuiasosopo",
          "crew", "n.o'neill", "studio.b", "lab_qc", "choir-sec"]
DOMS = ["example.theatre", "lab.example.org", "example.fm", "studio.example.coop", "example.nr", "clinic.example.ck", "example.com.nf",
        "print.example.net", "node.example.dev", "example.museum"]
# SMTPUTF8 mailboxes in scripts the families wrote little of.
UTF8_MAIL = ["բեմ@օրինակ.հայ", "სცენა@მაგალითი.გე", "เวที@ตัวอย่าง.ไทย", "மேடை@உதாரணம்.இந்தியா", "වේදිකාව@උදාහරණ.ලංකා",
             "тайз@жишээ.мон", "сахна@мысал.қаз", "ደረጃ@ምሳሌ.com", "ステージ@例え.みんな"]


def _email(r):
    return "%s@%s" % (r.choice(LOCALS), r.choice(DOMS))


def _entities(r, s):
    """Every character as a decimal or hex character reference, as mail
    obfuscators write an address."""
    return "".join(r.choice(["&#%d;" % ord(c), "&#x%x;" % ord(c), "&#X%X;" % ord(c)]) for c in s)


def i_email(r, doc, m):
    form = r.choice(["entities", "quoted_local", "tex_href", "lily_url", "musicxml", "vtt", "dovecot", "smtpd_aliases", "cron",
                     "reg", "systemd_env", "ps_dsc", "icecast_admin", "smtputf8", "form", "qp_split", "astm_h", "carrier", "carrier",
                     "carrier", "prose"])
    e = _email(r)
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        _carry(r, doc, "e-mail", e, "email", "carrier")
        return
    if form == "tex_href":
        loc = r.choice(["foh_audio", "stage_mgr", "lab_qc", "desk_7"])
        e = "%s@%s" % (loc, r.choice(DOMS))
        _seq(doc, form, ["\\email{", (_tex(e), "email"), "}\n\\homepage{www.example.theatre}\n% in the letter body:\nwrite to \\href{mailto:", (e, "email"),
                         "}{\\texttt{", (_tex(e), "email"), "}}.\n"])
        return
    if form == "lily_url":
        _seq(doc, form, ["\\header {\n  tagline = \\markup { \\with-url #\"mailto:", (e, "email"), "\" \"", (e, "email"), "\" }\n}\n"])
        return
    if form == "dovecot":
        _seq(doc, form, ["# /etc/dovecot/users\n", (e, "email"), ":{PLAIN}", (_pw(r).replace(":", ""), "api_key"), ":%d:%d::/var/vmail/%s::\n" % (
            r.randint(1000, 1999), r.randint(1000, 1999), e.split("@")[1])])
        return
    if form == "smtpd_aliases":
        _seq(doc, form, ["# /etc/mail/aliases (table aliases file:/etc/mail/aliases)\nfrontdesk: ", (e, "email"), ", ", (_email(r), "email"), "\n"])
        return
    if form == "astm_h":
        # The sender's contact in the header record's sender field, its components split by `^`.
        _seq(doc, form, ["H|\\^&|||LIS^Night Lab^", (_astm(e), "email"), "|||||||P|1|", _plain(lambda: "2026%02d%02d%02d%02d%02d" % (
            r.randint(1, 12), r.randint(1, 28), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))), "\r\n"])
        return
    if form == "qp_split":
        _put(doc, "Content-Transfer-Encoding: quoted-printable\n\nPlease send the rider and the stage plot to the production office at ",
             _qp_split(e, r), "email", form, " before Friday=2E\n")
        return
    lead, v, tail = {
        "entities": ("<a href=\"mailto:", _entities(r, e), "\">box office</a>\n"),
        "quoted_local": ("To: ", "\"%s %s\"@%s" % (r.choice(["ilka", "aroha", "pae"]), r.choice(["brandt", "m", "t"]), r.choice(DOMS)), "\n"),
        "musicxml": ("<identification>\n  <creator type=\"arranger\">Ilka Brandt &lt;", e, "&gt;</creator>\n</identification>\n"),
        "vtt": ("WEBVTT\n\n00:%02d:%02d.000 --> 00:%02d:%02d.500\n<v Host>write to " % (r.randint(0, 29), r.randint(0, 59), r.randint(30, 59), r.randint(0, 59)),
                e, " and we read it on air</v>\n"),
        "cron": ("MAILTO=\"", e, "\"\n15 3 * * * /usr/local/bin/borg-nightly\n"),
        "reg": ("[HKEY_CURRENT_USER\\Software\\BoxOffice]\n\"SupportEmail\"=\"", e, "\"\n"),
        "systemd_env": ("[Service]\nEnvironment=\"ALERT_TO=", e, "\"\n"),
        "ps_dsc": ("%!PS-Adobe-3.0\n%%For: (", _ps(e), ")\n%%Pages: 1\n"),
        "icecast_admin": ("<icecast>\n  <admin>", e, "</admin>\n  <location>Studio B</location>\n</icecast>\n"),
        "smtputf8": ("From: ", r.choice(UTF8_MAIL), "\n"),
        "form": ("email=", _form(e), "&consent=on\n"),
    }[form]
    _put(doc, lead, v, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["script", "script", "sep", "sep", "esc", "esc", "vtt", "nodered_twilio", "astm_p", "ps_show", "reg", "tex_phone",
                     "intl", "national_ctx", "national_noctx", "carrier", "carrier", "prose"])
    p, cc = _phone(r)
    if form == "script":
        script = r.choice(sorted(ZERO))
        _put(doc, r.choice(["☎ ", "Tel. ", "📞 "]), _digits(p, script), "phone", "script_%s_%s" % (script, cc), "\n")
        return
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["phone: ", "Tel ", "call "]), p.replace(" ", SEPS[name]), "phone", "sep_%s_%s" % (name, cc), "\n")
        return
    if form == "esc":
        name = r.choice(["tex_tie", "html_nbsp", "html_160", "html_nbhyphen", "json_nbsp", "json_thin", "c_x20", "form_plus"])
        lead, tail = {"tex_tie": ("\\phone[mobile]{", "}\n"), "html_nbsp": ("<td>Tel.</td><td>", "</td>\n"), "html_160": ("<span class=\"tel\">", "</span>\n"),
                      "html_nbhyphen": ("<dd>Mobile: ", "</dd>\n"), "json_nbsp": ("{\"phone\": \"", "\"}\n"), "json_thin": ("{\"tel\": \"", "\"}\n"),
                      "c_x20": ("HELPDESK = \"", "\"\n"), "form_plus": ("name=Ilka&phone=", "&consent=on\n")}[name]
        v = p.replace(" ", ESC_SEPS[name]) if name != "form_plus" else _form(p)
        _put(doc, lead, v, "phone", "esc_%s_%s" % (name, cc), tail)
        return
    if form == "national_ctx":
        v = r.choice([lambda: "(876) %s%s-%s" % (_nz(r), _d(r, 2), _d(r, 4)), lambda: "557 %s" % _d(r, 4), lambda: "%s %s" % (r.choice("2578") + _d(r, 1), _d(r, 3)),
                      lambda: "093 %s %s" % (_d(r, 3), _d(r, 4)), lambda: "0%s %s %s" % (r.choice(["70", "78"]), _d(r, 3), _d(r, 4))])()
        _put(doc, r.choice(["Tel.: ", "phone ", "mobile: ", "call "]), v, "phone", "national_ctx", "\n")
        return
    if form == "national_noctx":
        v = "0%s %s %s" % (r.choice(["70", "78", "93"]), _d(r, 3), _d(r, 4))
        _put(doc, r.choice(["", "ref ", "slot "]), v, "phone", "national_noctx", "\n", claimed=False)
        return
    if form == "prose":
        _prose(r, doc, p, "phone", "prose", "telefon")
        return
    if form == "carrier":
        _carry(r, doc, "phone", p, "phone", "carrier")
        return
    if form == "astm_p":
        # ASTM patient record: practice id, lab id, name, birth date, sex, address, then the telephone.
        _seq2_clean(r, doc, form, lambda: ["P|1|", ("PR%06d" % r.randint(0, 999999), "look:astm_practice_id"), "|", ("L%07d" % r.randint(0, 9999999), "look:astm_lab_id"),
                                           "||Brandt^Ilka^M||19%02d%02d%02d|F|||Harbour Rd 4^Avarua||", (p, "phone"), "|Dr Moana^Tere\r\n"])
        return
    lead, tail = {
        "vtt": ("WEBVTT\n\n00:%02d:%02d.000 --> 00:%02d:%02d.000\n<v Host>lines are open: " % (r.randint(0, 29), r.randint(0, 59), r.randint(30, 59), r.randint(0, 59)), "</v>\n"),
        "nodered_twilio": ("[{\"id\":\"%s\",\"type\":\"twilio out\",\"twilio\":\"%s\",\"twilioType\":\"sms\",\"number\":\"" % (_hx(r, 16), _hx(r, 16)), "\",\"name\":\"on-call\"}]\n"),
        "ps_show": ("/Helvetica findfont 9 scalefont setfont\n72 40 moveto\n(Box office: ", ") show\n"),
        "reg": ("[HKEY_LOCAL_MACHINE\\SOFTWARE\\BoxOffice]\n\"HelpdeskPhone\"=\"", "\"\n"),
        "tex_phone": ("\\phone[fixed]{", "}\n"),
        "intl": (r.choice(["", "Tel ", "WhatsApp "]), "\n"),
    }[form]
    _put(doc, lead, p, "phone", "%s_%s" % (form, cc), tail)


SSN_WORDS = {
    "cal": "Nampaa Social Security", "uli": "Nambaa Social Security", "woe": "Nambaa Social Security",
    "mrl": "Nampaa Social Security", "pif": "Nempe Social Security", "mkj": "Nempe Social Security",
    "stw": "Nampaa Social Security", "nkr": "Numela Social Security", "kpg": "Numela Social Security",
}


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["script", "script", "sep", "sep", "tex_endash", "html", "json_u2d", "form_plus", "pdftotext", "astm_p", "sql",
                     "micronesia", "micronesia", "carrier", "carrier", "prose"])
    if form == "script":
        script = r.choice(sorted(ZERO))
        _put(doc, r.choice(["SSN: ", "Social Security No. ", "ssn "]), _digits(dashed, script), "us_ssn", "script_" + script, "\n")
        return
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["SSN ", "Social Security number: ", "SSN# "]), dashed.replace("-", SEPS[name]), "us_ssn", "sep_" + name, "\n")
        return
    if form == "tex_endash":
        _put(doc, "\\textbf{Social Security Number:} ", "%s--%s--%s" % (a, g, s), "us_ssn", form, "\\\\\n")
        return
    if form == "html":
        ent = r.choice(["&#45;", "&hyphen;", "&#x2010;", "&#x2D;", "&minus;"])
        _put(doc, "<tr><th>SSN</th><td>", dashed.replace("-", ent), "us_ssn", "html", "</td></tr>\n")
        return
    if form == "json_u2d":
        _put(doc, "{\"employee\": {\"ssn\": \"", dashed.replace("-", r.choice(["\\u002d", "\\u002D", "\\u2011"])), "us_ssn", form, "\"}}\n")
        return
    if form == "form_plus":
        _put(doc, "first=Ilka&last=Brandt&ssn=", "%s+%s+%s" % (a, g, s), "us_ssn", form, "&dob=1986-04-12\n")
        return
    if form == "pdftotext":
        _put(doc, "a Employee's social security number     OMB No. 1545-0008\n    ", dashed, "us_ssn", form,
             "\nb Employer identification number (EIN)\n")
        return
    if form == "astm_p":
        _put(doc, "P|1|PR%06d|L%07d|" % (r.randint(0, 999999), r.randint(0, 9999999)), dashed, "us_ssn", form, "|Brandt^Ilka||19%02d0412|F\r\n" % r.randint(40, 99))
        return
    if form == "sql":
        _put(doc, "INSERT INTO payroll (name, ssn) VALUES ('O''Neill, Pae', '", dashed, "us_ssn", form, "');\n")
        return
    if form == "micronesia":
        lang = r.choice(sorted(SSN_WORDS))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + SSN_WORDS[lang] + " ", dashed if r.random() < 0.7 else "%s %s %s" % (a, g, s), "us_ssn", "micronesia_" + lang, tail + "\n")
        return
    if form == "prose":
        _prose(r, doc, dashed, "us_ssn", "prose", "SSN")
        return
    _carry(r, doc, "SSN", dashed, "us_ssn", "carrier")


def i_card(r, doc, m):
    c, kind = _card(r, m)
    g = _groups(c)
    form = r.choice(["script", "script", "sep", "sep", "esc", "esc", "esc", "qp_split", "ps_show", "pjl", "icecast_meta", "astm_c", "sql",
                     "plain", "carrier", "carrier", "prose"])
    if form == "script":
        script = r.choice(sorted(ZERO))
        _put(doc, r.choice(["card ", "Card no. ", "PAN: "]), _digits(" ".join(g), script), "credit_card", "script_%s_%s" % (script, kind), "\n")
        return
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["card ", "Kartennummer ", "paid with "]), SEPS[name].join(g), "credit_card", "sep_%s_%s" % (name, kind), "\n")
        return
    if form == "esc":
        name = r.choice(sorted(ESC_SEPS))
        lead, tail = {"tex_tie": ("\\textbf{Card:} ", "\\\\\n"), "tex_thin": ("Card number: \\texttt{", "}\n"), "html_nbsp": ("<td class=\"pan\">", "</td>\n"),
                      "html_160": ("<td class=\"pan\">", "</td>\n"), "html_thinsp": ("<span>Card ", "</span>\n"), "html_nbhyphen": ("<span>Card ", "</span>\n"),
                      "json_nbsp": ("{\"card_number\": \"", "\"}\n"), "json_thin": ("{\"pan\": \"", "\"}\n"), "json_nnbsp": ("{\"cardNumber\": \"", "\"}\n"),
                      "c_x20": ("pan = \"", "\"  # Python\n"), "c_octal": ("char pan[] = \"", "\";\n"), "form_plus": ("amount=12.50&card=", "&exp=0929\n")}[name]
        _put(doc, lead, ESC_SEPS[name].join(g), "credit_card", "esc_%s_%s" % (name, kind), tail)
        return
    if form == "qp_split":
        _put(doc, "Content-Transfer-Encoding: quoted-printable\n\nThe card on file is ", _qp_split(" ".join(g), r), "credit_card", "qp_" + kind,
             " =E2=80=94 please update it.\n")
        return
    if form == "prose":
        _prose(r, doc, " ".join(g), "credit_card", "prose", "card")
        return
    if form == "carrier":
        _carry(r, doc, "card number", " ".join(g), "credit_card", "carrier")
        return
    lead, v, tail = {
        "ps_show": ("72 700 moveto\n(Paid by card ", " ".join(g), ") show\n"),
        "pjl": ("@PJL JOB NAME = \"receipt ", " ".join(g), "\"\n"),
        "icecast_meta": ("GET /admin/metadata?mount=/live&mode=updinfo&song=donation+card+", "+".join(g), " HTTP/1.0\n"),
        "astm_c": ("C|1|I|billing card ", " ".join(g), "|G\r\n"),
        "sql": ("INSERT INTO payments (pan, holder) VALUES ('", "".join(g), "', 'O''Neill');\n"),
        "plain": (r.choice(["card ", "Card number: ", "PAN "]), r.choice([" ", "-", ""]).join(g), "\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i, cc = _iban(r)
    form = r.choice(["sep", "sep", "esc", "esc", "qp_split", "compact", "spaced", "tex_letter", "sql", "reg", "carrier", "carrier", "prose"])
    if form == "sep":
        name = r.choice(sorted(SEPS))
        _put(doc, r.choice(["IBAN ", "IBAN: ", "account "]), _iban_text(i, SEPS[name]), "iban", "sep_%s_%s" % (name, cc), "\n")
        return
    if form == "esc":
        name = r.choice(sorted(ESC_SEPS))
        lead, tail = {"tex_tie": ("IBAN: ", "\\\\\n"), "tex_thin": ("IBAN \\texttt{", "}\n"), "html_nbsp": ("<td>IBAN</td><td>", "</td>\n"),
                      "html_160": ("<td>IBAN</td><td>", "</td>\n"), "html_thinsp": ("<p>IBAN ", "</p>\n"), "html_nbhyphen": ("<p>IBAN ", "</p>\n"),
                      "json_nbsp": ("{\"iban\": \"", "\"}\n"), "json_thin": ("{\"iban\": \"", "\"}\n"), "json_nnbsp": ("{\"IBAN\": \"", "\"}\n"),
                      "c_x20": ("PAYOUT_IBAN = \"", "\"\n"), "c_octal": ("#define PAYOUT_IBAN \"", "\"\n"), "form_plus": ("holder=Ilka+Brandt&iban=", "&bic=\n")}[name]
        _put(doc, lead, _iban_text(i, ESC_SEPS[name]), "iban", "esc_%s_%s" % (name, cc), tail)
        return
    if form == "qp_split":
        _put(doc, "Content-Transfer-Encoding: quoted-printable\n\nBitte =C3=BCberweisen Sie auf ", _qp_split(_iban_text(i), r), "iban", "qp_" + cc, "=2E\n")
        return
    if form == "tex_letter":
        _put(doc, "\\closing{Mit freundlichen Gr\\\"u\\ss en}\n\\ps{Bankverbindung: IBAN~", _iban_text(i, "\\,"), "iban", "tex_letter_" + cc, "}\n")
        return
    if form == "prose":
        _prose(r, doc, _iban_text(i), "iban", "prose", "IBAN")
        return
    if form == "carrier":
        _carry(r, doc, "IBAN", _iban_text(i) if r.random() < 0.6 else i, "iban", "carrier")
        return
    lead, v, tail = {
        "compact": (r.choice(["IBAN ", "iban=", "account: "]), i, "\n"),
        "spaced": ("IBAN: ", _iban_text(i), "\n"),
        "sql": ("INSERT INTO payees (name, iban) VALUES ('Brandt', '", i, "');\n"),
        "reg": ("[HKEY_CURRENT_USER\\Software\\BoxOffice\\Payout]\n\"IBAN\"=\"", _iban_text(i), "\"\n"),
    }[form]
    _put(doc, lead, v, "iban", "%s_%s" % (form, cc), tail)


def i_ipv4(r, doc, m):
    ip = _v4_any(r)
    form = r.choice(["cups_uri", "artnet", "sacn", "oscsend", "icecast_bind", "liquidsoap", "astm_tcp", "systemd_allow", "systemd_listen",
                     "reg_dns", "tailscale", "cometbft_peer", "multiaddr", "defanged", "regex", "haproxy", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    if form == "carrier":
        _carry(r, doc, "host", ip, "ipv4", "carrier")
        return
    if form == "reg_dns":
        _seq(doc, form, ["[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters\\Interfaces\\{%s}]\n\"NameServer\"=\"" % _uuid(r, upper=True),
                         (ip, "ipv4"), ",", (_v4_any(r), "ipv4"), "\"\n"])
        return
    if form == "artnet":
        ip = "2.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))
        _seq2_clean(r, doc, form, lambda: ["Art-Net node \"DMX Node 4\" at ", (ip, "ipv4"), ", Net ", ("%d" % r.randint(0, 127), "look:artnet_net"), " Sub-Net ", ("%d" % r.randint(0, 15), "look:artnet_subnet"),
                          " Universe ", ("%d.%d.%d" % (r.randint(0, 127), r.randint(0, 15), r.randint(0, 15)), "look:artnet_universe"), "\n"])
        return
    if form == "cometbft_peer":
        _seq2_clean(r, doc, form, lambda: ["persistent_peers = \"", (_hx(r, 40), "look:cometbft_node_id"), "@", (ip, "ipv4"), ":26656,", (_hx(r, 40), "look:cometbft_node_id"), "@",
                          (_v4(r), "ipv4"), ":26656\"\n"])
        return
    if form == "multiaddr":
        _seq2_clean(r, doc, form, lambda: ["\"Bootstrap\": [\n  \"/ip4/", (ip, "ipv4"), "/tcp/4001/p2p/", (_b58(bytes.fromhex("002408011220") + _rb(r, 32)), "look:ipfs_peer_id"),
                                           "\"\n]\n"])
        return
    if form == "tailscale":
        ip = "100.%d.%d.%d" % (r.randint(64, 127), r.randint(0, 255), r.randint(1, 254))
        _put(doc, "$ tailscale ip -4\n", ip, "ipv4", form, "\n")
        return
    if form == "defanged":
        _put(doc, r.choice(["IOC: beacon to ", "blocked C2 ", "hxxp://"]), ip.replace(".", "[.]"), "ipv4", form, r.choice(["\n", "/gate.php\n"]))
        return
    if form == "regex":
        _put(doc, r.choice(["RewriteCond %{REMOTE_ADDR} ^", "if ($remote_addr ~ \"^", "ignoreregex = ^"]), ip.replace(".", "\\."), "ipv4", form,
             r.choice(["$\n", "$\") { return 403; }\n", "$\n"]))
        return
    lead, tail = {
        "cups_uri": ("DeviceURI " + r.choice(["ipp://", "socket://", "lpd://"]), r.choice([":631/ipp/print\n", ":9100\n", "/queue\n"])),
        "sacn": ("[sacn]\nmode = unicast\ndestination = ", "\nuniverse = %d\npriority = 100\n" % r.randint(1, 63999)),
        "oscsend": ("$ oscsend ", " 8000 /eos/cue/%d/fire\n" % r.randint(1, 400)),
        "icecast_bind": ("<listen-socket>\n  <port>8000</port>\n  <bind-address>", "</bind-address>\n</listen-socket>\n"),
        "liquidsoap": ("output.icecast(%mp3, host=\"", "\", port=8000, mount=\"live\", radio)\n"),
        "astm_tcp": ("[lis]\nprotocol = astm-e1394\nhost = ", "\nport = %d\n" % r.randint(2000, 9999)),
        "systemd_allow": ("[Service]\nIPAddressDeny=any\nIPAddressAllow=", "\n"),
        "systemd_listen": ("[Socket]\nListenStream=", ":%d\n" % r.randint(1024, 9999)),
        "haproxy": ("backend lis\n    server lis1 ", ":%d check\n" % r.randint(1024, 9999)),
    }[form]
    _put(doc, lead, ip, "ipv4", form, tail)


def i_ipv6(r, doc, m):
    ip = _v6(r)
    form = r.choice(["multiaddr", "smtp_literal", "postfix", "cups_uri", "ip_addr", "tailscale", "cometbft_peer", "reg", "systemd_allow",
                     "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    if form == "carrier":
        _carry(r, doc, "host", ip, "ipv6", "carrier")
        return
    if form == "tailscale":
        ip = "fd7a:115c:a1e0::%x:%x" % (r.randint(1, 0xffff), r.randint(1, 0xffff))
        _put(doc, "$ tailscale ip -6\n", ip, "ipv6", form, "\n")
        return
    if form == "cometbft_peer":
        _seq2_clean(r, doc, form, lambda: ["seeds = \"", (_hx(r, 40), "look:cometbft_node_id"), "@[", (ip, "ipv6"), "]:26656\"\n"])
        return
    if form == "multiaddr":
        _seq2_clean(r, doc, form, lambda: ["  \"/ip6/", (ip, "ipv6"), "/udp/4001/quic-v1/p2p/", (_b58(bytes.fromhex("002408011220") + _rb(r, 32)), "look:ipfs_peer_id"),
                                           "\",\n"])
        return
    lead, tail = {
        "smtp_literal": ("Received: from relay (", ") by mx.example.fm with ESMTPS\n"),
        "postfix": ("Dec  7 22:%02d:%02d mx postfix/smtpd[%d]: connect from unknown[" % (r.randint(0, 59), r.randint(0, 59), r.randint(1000, 99999)), "]\n"),
        "cups_uri": ("DeviceURI ipp://[", "]:631/ipp/print\n"),
        "ip_addr": ("    inet6 ", "/64 scope global dynamic mngtmpaddr\n"),
        "reg": ("[HKEY_LOCAL_MACHINE\\SOFTWARE\\BoxOffice]\n\"ServerV6\"=\"", "\"\n"),
        "systemd_allow": ("[Service]\nIPAddressAllow=", "\n"),
    }[form]
    if form == "smtp_literal":
        lead += "[IPv6:"
        tail = "]" + tail
    _put(doc, lead, ip, "ipv6", form, tail)


def _provider(r):
    """A provider token no family wrote, in its own place: parts as `_seq2` takes them."""
    name = r.choice(["dropbox", "doppler", "b2", "gcs_hmac", "zhipu", "qianfan", "axiom", "readme", "tink_aes", "zigbee", "lmic"])
    if name == "dropbox":
        return name, ["DROPBOX_ACCESS_TOKEN=", ("sl.u." + _s(r, B64URL, r.randint(150, 200)), "api_key"), "\n"]
    if name == "doppler":
        kind = r.choice(["pt", "ct", "sa", "scim", "st"])
        return name, [r.choice(["DOPPLER_TOKEN=", "$ doppler configure set token ", "Authorization: Bearer "]), ("dp.%s.%s" % (kind, _s(r, AN, r.choice([40, 43]))), "api_key"), "\n"]
    if name == "b2":
        # The key id is labeled as tune labels an AWS access key id; the application key is the secret.
        return name, ["B2_APPLICATION_KEY_ID=", ("005" + _hx(r, 22), "api_key"), "\nB2_APPLICATION_KEY=", ("K005" + _s(r, AN + "/+", 27), "api_key"), "\n"]
    if name == "gcs_hmac":
        return name, ["[Credentials]\ngs_access_key_id = ", ("GOOG1E" + _s(r, UPD, 55), "api_key"), "\ngs_secret_access_key = ", (_s(r, AN + "/+", 40), "api_key"), "\n"]
    if name == "zhipu":
        return name, ["ZHIPUAI_API_KEY=", ("%s.%s" % (_hx(r, 32), _s(r, AN, 16)), "api_key"), "\n"]
    if name == "qianfan":
        return name, ["QIANFAN_API_KEY=", ("bce-v3/ALTAK-%s/%s" % (_s(r, AN, 21), _hx(r, 40)), "api_key"), "\n"]
    if name == "axiom":
        return name, ["AXIOM_TOKEN=", ("xapt-" + _uuid(r), "api_key"), "\nAXIOM_ORG_ID=", ("crew-" + _s(r, LOWD, 6), "look:axiom_org_id"), "\n"]
    if name == "readme":
        return name, ["README_API_KEY=", ("rdme_" + _s(r, LOWD, 70), "api_key"), "\n"]
    if name == "tink_aes":
        kid = r.randint(10 ** 8, 4 * 10 ** 9)
        val = _b64(bytes.fromhex("1a20") + _rb(r, 32))
        return name, ["{\"primaryKeyId\":%d,\"key\":[{\"keyData\":{\"typeUrl\":\"type.googleapis.com/google.crypto.tink.AesGcmKey\",\"value\":\"" % kid,
                      (val, "api_key"), "\",\"keyMaterialType\":\"SYMMETRIC\"},\"status\":\"ENABLED\",\"keyId\":%d,\"outputPrefixType\":\"TINK\"}]}\n" % kid]
    if name == "zigbee":
        key = ", ".join(str(b) for b in _rb(r, 16))
        ext = "[" + ", ".join(str(b) for b in _rb(r, 8)) + "]"
        return name, ["advanced:\n  pan_id: ", ("0x%04x" % r.randint(1, 0xfffe), "look:zigbee_pan_id"), "\n  ext_pan_id: ", (ext, "look:zigbee_ext_pan_id"),
                      "\n  channel: %d\n  network_key: [" % r.choice([11, 15, 20, 25]), (key, "api_key"), "]\n"]
    # lmic: the device EUI and join EUI are identifiers; the AppKey is the root key.
    arr = lambda raw: ", ".join("0x%02X" % b for b in raw)
    return name, ["static const u1_t PROGMEM APPEUI[8] = { ", (arr(_rb(r, 8)), "look:lorawan_joineui"), " };\nstatic const u1_t PROGMEM DEVEUI[8] = { ",
                  (arr(_rb(r, 8)), "look:lorawan_deveui"), " };\nstatic const u1_t PROGMEM APPKEY[16] = { ", (arr(_rb(r, 16)), "api_key"), " };\n"]


def i_api_key(r, doc, m):
    pw = _pw(r)
    form = r.choice(["icecast", "liquidsoap", "clickhouse", "cqlshrc", "pgbouncer", "nodered", "openhab", "z2m_mqtt", "haproxy", "borg",
                     "rsync", "davfs", "systemd_cred", "winlogon", "envrc", "provider", "provider", "provider", "provider", "provider",
                     "provider", "provider", "carrier", "prose"])
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
    if form == "icecast":
        _seq(doc, form, ["<authentication>\n  <source-password>", (_xml(pw), "api_key"), "</source-password>\n  <admin-user>admin</admin-user>\n  <admin-password>",
                         (_xml(_pw(r)), "api_key"), "</admin-password>\n</authentication>\n"])
        return
    if form == "clickhouse":
        # The reader's hash is of another password (its own).
        _seq2_clean(r, doc, form, lambda: ["<users>\n  <crew>\n    <password>", (_xml(pw), "api_key"), "</password>\n  </crew>\n  <reader>\n    <password_sha256_hex>",
                                           (hashlib.sha256(_pw(r).encode()).hexdigest(), "look:clickhouse_sha256"), "</password_sha256_hex>\n  </reader>\n</users>\n"])
        return
    if form == "pgbouncer":
        # An `md5` entry is password-equivalent (PostgreSQL's md5 exchange needs
        # only the stored hash, and PgBouncer logs in to the server with it): a
        # secret, not a look-alike. Drawn as when it was one (again while a run
        # of its digits passes as a card), so the rest of the family is unchanged.
        while True:
            md5 = "md5" + hashlib.md5(_pw(r).encode()).hexdigest()
            if not _cardish(md5):
                break
        _seq(doc, form, ["; userlist.txt\n\"boxoffice\" \"", (pw, "api_key"), "\"\n\"reporting\" \"", (md5, "api_key"), "\"\n"])
        return
    if form == "borg":
        # The repository URL's user is no mailbox.
        _seq2(doc, form, ["export BORG_REPO=ssh://", ("borg@backup.example.coop", "look:ssh_url_user"), "/./crew\nexport BORG_PASSPHRASE='", (_shq(pw), "api_key"), "'\n"])
        return
    if form == "rsync":
        _seq2(doc, form, ["RSYNC_PASSWORD='", (_shq(pw), "api_key"), "' rsync -a /srv/lis/ rsync://", ("crew@backup.example.coop", "look:rsync_url_user"), "/lis/\n"])
        return
    lead, v, tail = {
        "liquidsoap": ("output.icecast(%opus, host=\"localhost\", port=8000, password=\"", _cstr(pw), "\", mount=\"live.ogg\", radio)\n"),
        "cqlshrc": ("[authentication]\nusername = boxoffice\npassword = ", pw, "\n"),
        "nodered": ("module.exports = {\n    credentialSecret: \"", _cstr(pw), "\",\n    flowFile: 'flows.json',\n};\n"),
        "openhab": ("# services/mqtt.cfg\nmosquitto.user=crew\nmosquitto.pwd=", pw, "\n"),
        "z2m_mqtt": ("mqtt:\n  server: mqtts://mqtt.example.coop:8883\n  user: crew\n  password: '", _yq(pw), "'\n"),
        "haproxy": ("userlist stats\n    user crew insecure-password ", pw, "\n"),
        "davfs": ("# /etc/davfs2/secrets\nhttps://dav.example.coop/crew crew ", pw.replace(" ", ""), "\n"),
        "systemd_cred": ("[Service]\nSetCredential=db-password:", _sd(pw), "\n"),
        "winlogon": ("[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n\"AutoAdminLogon\"=\"1\"\n\"DefaultUserName\"=\"kiosk\"\n\"DefaultPassword\"=\"",
                     _cstr(pw), "\"\n"),
        "envrc": ("# .envrc\nexport LIS_API_TOKEN='", _tok(r, 40), "'\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["jwe", "jwe", "none", "hls_key", "liquidsoap", "systemd_cred", "reg", "nodered", "carrier", "carrier", "prose"])
    tok = _jwe(r) if form == "jwe" else _jwt_none(r) if form == "none" else _jwt(r)
    if form == "prose":
        _prose(r, doc, tok, "jwt", "prose", "token")
        return
    if form == "carrier":
        _carry(r, doc, "session token", tok, "jwt", "carrier")
        return
    lead, tail = {
        "jwe": (r.choice(["Authorization: Bearer ", "id_token=", "{\"encrypted_token\": \""]), r.choice(["\n", "&state=%s\n" % _hx(r, 16), "\"}\n"])),
        "none": (r.choice(["X-Debug-Token: ", "token="]), "\n"),
        "hls_key": ("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.fm/live/key.bin?token=", "\",IV=0x%s\n" % _hx(r, 32)),
        "liquidsoap": ("http.post(headers=[(\"Authorization\", \"Bearer ", "\")], \"https://api.example.fm/now-playing\")\n"),
        "systemd_cred": ("[Service]\nSetCredential=api-token:", "\n"),
        "reg": ("[HKEY_CURRENT_USER\\Software\\BoxOffice\\Session]\n\"AccessToken\"=\"", "\"\n"),
        "nodered": ("[{\"id\":\"%s\",\"type\":\"http request\",\"method\":\"GET\",\"url\":\"https://lis.example.lab/api/results\",\"headers\":{\"Authorization\":\"Bearer " % _hx(r, 16), "\"}}]\n"),
    }[form]
    _put(doc, lead, tok, "jwt", form, tail)


def i_private_key(r, doc, m):
    form = r.choice(["cometbft_validator", "cometbft_node", "ipfs", "tailscale", "bip32_desc", "electrum", "tink_ecdsa", "openvpn_static",
                     "pem_form", "pem_properties", "pem_xml", "pem_systemd", "py_bytes", "pem_powershell", "carrier", "prose"])
    if form in ("cometbft_validator", "cometbft_node"):
        def build():
            seed, pub = _rb(r, 32), _rb(r, 32)
            parts = ["{\n"]
            if form == "cometbft_validator":
                parts += ["  \"address\": \"", (hashlib.sha256(pub).hexdigest()[:40].upper(), "look:cometbft_validator_address"),
                          "\",\n  \"pub_key\": {\n    \"type\": \"tendermint/PubKeyEd25519\",\n    \"value\": \"", (_b64(pub), "look:ed25519_public_key"), "\"\n  },\n"]
            return parts + ["  \"priv_key\": {\n    \"type\": \"tendermint/PrivKeyEd25519\",\n    \"value\": \"", (_b64(seed + pub), "private_key"), "\"\n  }\n}\n"]
        _seq2_clean(r, doc, form, build)
        return
    if form == "ipfs":
        def build():
            pub = _rb(r, 32)
            return ["\"Identity\": {\n  \"PeerID\": \"", (_b58(bytes.fromhex("002408011220") + pub), "look:ipfs_peer_id"), "\",\n  \"PrivKey\": \"",
                    (_b64(bytes.fromhex("08011240") + _rb(r, 32) + pub), "private_key"), "\"\n},\n"]
        _seq2_clean(r, doc, form, build)
        return
    if form == "tailscale":
        _seq2_clean(r, doc, form, lambda: ["{\"PrivateNodeKey\":\"privkey:", (_hx(r, 64), "private_key"), "\",\"NodeKey\":\"nodekey:", (_hx(r, 64), "look:tailscale_nodekey"),
                                           "\"}\n"])
        return
    if form == "bip32_desc":
        kind = r.choice(sorted(BIP32))
        path = {"tprv": "84h/1h/0h", "vprv": "84h/1h/0h", "yprv": "49h/0h/0h", "zprv": "84h/0h/0h"}[kind]
        _seq(doc, form, ["$ bitcoin-cli -named listdescriptors private=true\n      \"desc\": \"wpkh(", (_bip32(r, BIP32[kind]), "private_key"),
                         "/%s/0/*)#%s\",\n" % (path, _s(r, "qpzry9x8gf2tvdw0s3jn54khce6mua7l", 8))])
        return
    if form == "electrum":
        kind = r.choice(["zprv", "vprv", "yprv"])
        pub = {"zprv": "zpub", "vprv": "vpub", "yprv": "ypub"}[kind]
        _seq2_clean(r, doc, form, lambda: ["\"keystore\": {\n  \"type\": \"bip32\",\n  \"xprv\": \"", (_bip32(r, BIP32[kind]), "private_key"), "\",\n  \"xpub\": \"",
                          (_bip32(r, BIP32_PUB[pub]), "look:bip32_public"), "\"\n},\n"])
        return
    if form == "tink_ecdsa":
        kid = r.randint(10 ** 8, 4 * 10 ** 9)
        pubmsg = bytes.fromhex("1206080310021802") + bytes.fromhex("1a20") + _rb(r, 32) + bytes.fromhex("2220") + _rb(r, 32)
        priv = bytes.fromhex("124c") + pubmsg + bytes.fromhex("1a2100") + _rb(r, 32)
        _seq(doc, form, ["{\"primaryKeyId\":%d,\"key\":[{\"keyData\":{\"typeUrl\":\"type.googleapis.com/google.crypto.tink.EcdsaPrivateKey\",\"value\":\"" % kid,
                         (_b64(priv), "private_key"), "\",\"keyMaterialType\":\"ASYMMETRIC_PRIVATE\"},\"status\":\"ENABLED\",\"keyId\":%d,\"outputPrefixType\":\"TINK\"}]}\n" % kid])
        return
    if form == "openvpn_static":
        body = "\n".join(_hx(r, 32) for _ in range(16))
        _put(doc, "<tls-crypt>\n", "-----BEGIN OpenVPN Static key V1-----\n%s\n-----END OpenVPN Static key V1-----" % body, "private_key", form, "\n</tls-crypt>\n")
        return
    if form == "carrier":
        kind = r.choice(sorted(BIP32))
        _carry(r, doc, "wallet key", _bip32(r, BIP32[kind]), "private_key", "carrier")
        return
    if form == "prose":
        kind = r.choice(sorted(BIP32))
        _prose(r, doc, _bip32(r, BIP32[kind]), "private_key", "prose", "key")
        return
    lines, kind = _pem_lines(r)
    if form == "pem_form":
        _put(doc, "POST /api/devices HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nname=desk-7&private_key=", _form("\n".join(lines)), "private_key",
             "%s_%s" % (form, kind), "&save=1\n")
        return
    if form == "pem_properties":
        v = "\\n\\\n    ".join(lines)
        _put(doc, "# application.properties\nbox-office.signing-key=", v, "private_key", "%s_%s" % (form, kind), "\nbox-office.issuer=desk\n")
        return
    if form == "pem_xml":
        br = r.choice(["&#xD;&#xA;", "&#13;&#10;", "&#xA;"])
        _put(doc, "<appSettings>\n  <add key=\"SigningKey\" value=\"", br.join(lines), "private_key", "%s_%s" % (form, kind), "\" />\n</appSettings>\n")
        return
    if form == "pem_systemd":
        _put(doc, "[Service]\nSetCredential=tls.key:", "\\n".join(lines), "private_key", "%s_%s" % (form, kind), "\n")
        return
    if form == "py_bytes":
        kind = r.choice(["ed25519", "x25519", "p384"])
        while True:
            rep = repr(_der(r, kind))
            if rep[2:-1] == rep[2:-1].strip():
                break
        _put(doc, "SIGNING_KEY_DER = b" + rep[1], rep[2:-1], "private_key", "%s_%s" % (form, kind), rep[-1] + "\n")
        return
    _put(doc, "$key = @'\n", "\n".join(lines), "private_key", "%s_%s" % (form, kind), "\n'@\nSet-Content -Path C:\\BoxOffice\\key.pem -Value $key\n")


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["ipps", "smb", "icecast", "mqtts", "nntps", "ircs", "b2", "davs", "ftpes", "webcal", "sip", "pls", "carrier", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "mqtts://crew:", pw, "url_credentials", "prose_" + lang, "@mqtt.example.coop:8883 " + tail + "\n")
        return
    if form == "carrier":
        f, lead, tail, esc = _carrier(r, "stream url")
        # The container's escape of the whole URL; the password is the item.
        pre, post = esc("icecast://source:"), esc("@stream.example.fm:8000/live")
        _put(doc, lead + pre, esc(pw), "url_credentials", "carrier_" + f, post + tail)
        return
    if form == "b2":
        # duplicity's B2 URL: the key id is the user, the application key the password.
        _seq2(doc, form, ["$ duplicity /srv/lis b2://", ("005" + _hx(r, 22), "api_key"), ":", ("K005" + _s(r, AN, 27), "url_credentials"), "@crew-backups/lis\n"])
        return
    if form == "sip":
        _put(doc, "[general]\nregister => 1001:", pw.replace("/", "").replace("@", ""), "url_credentials", form, "@sip.example.coop/1001\n")
        return
    lead, tail = {
        "ipps": ("DeviceURI ipps://boxoffice:", "@print.example.net:631/ipp/print\n"),
        "smb": ("DeviceURI smb://CREW/boxoffice:", "@fileserver/FrontDesk\n"),
        "icecast": ("$ ffmpeg -re -i show.wav -c:a libopus -f ogg icecast://source:", "@stream.example.fm:8000/live.ogg\n"),
        "mqtts": ("Thing mqtt:broker:crew \"Broker\" [ host=\"mqtt.example.coop\", secure=true ]\n# or: mqtts://crew:", "@mqtt.example.coop:8883\n"),
        "nntps": ("$ slrn --nntp -h nntps://reader:", "@news.example.net:563\n"),
        "ircs": ("/connect ircs://crew:", "@irc.example.net:6697\n"),
        "davs": ("$ gio mount davs://crew:", "@dav.example.coop/remote.php/dav/files/crew/\n"),
        "ftpes": ("$ lftp -e 'mirror -R show/ /www' ftpes://deploy:", "@ftp.example.theatre\n"),
        "webcal": ("Subscribe: webcal://crew:", "@cal.example.theatre/rehearsals.ics\n"),
        "pls": ("[playlist]\nNumberOfEntries=1\nFile1=http://listener:", "@radio.example.fm:8000/stream\nTitle1=Studio B\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


def i_record(r, doc, m):
    """Records that hold values of several classes at once."""
    form = r.choice(["astm_message", "moderncv_head", "systemd_unit", "reg_profile", "nodered_flow"])
    e = _email(r)
    p, cc = _phone(r)
    if form == "astm_message":
        a, g, s = _ssn(r)
        _seq(doc, form, ["H|\\^&|||LIS^Night Lab^", (_astm(e), "email"), "|||||||P|1\r\n", "P|1|PR%06d|L%07d|" % (r.randint(0, 999999), r.randint(0, 9999999)),
                         ("%s-%s-%s" % (a, g, s), "us_ssn"), "|Brandt^Ilka||19%02d0412|F|||Harbour Rd 4^Avarua||" % r.randint(40, 99), (p, "phone"),
                         "|\r\nO|1|S%02d-%07d||^^^GLU|R\r\nL|1|N\r\n" % (r.randint(24, 26), r.randint(0, 9999999))])
        return
    if form == "moderncv_head":
        i, _ = _iban(r)
        e = "%s@%s" % (r.choice(["foh_audio", "stage_mgr", "lab_qc", "desk_7"]), r.choice(DOMS))
        _seq(doc, form, ["\\name{Ilka}{Brandt}\n\\phone[mobile]{", (p.replace(" ", "~"), "phone"), "}\n\\email{", (_tex(e), "email"), "}\n\\extrainfo{IBAN~",
                         (_iban_text(i, "\\,"), "iban"), "}\n"])
        return
    if form == "systemd_unit":
        _seq(doc, form, ["[Service]\nEnvironment=\"ALERT_TO=", (e, "email"), "\"\nSetCredential=db-password:", (_sd(_pw(r)), "api_key"),
                         "\nSetCredential=api-token:", (_jwt(r), "jwt"), "\nIPAddressAllow=", (_v4_any(r), "ipv4"), "\n"])
        return
    if form == "reg_profile":
        c, _ = _card(r, m)
        _seq(doc, form, ["[HKEY_CURRENT_USER\\Software\\BoxOffice\\Profile]\n\"Email\"=\"", (e, "email"), "\"\n\"Phone\"=\"", (p, "phone"),
                         "\"\n\"CardNumber\"=\"", (" ".join(_groups(c)), "credit_card"), "\"\n\"Server\"=\"", (_v4_any(r), "ipv4"), "\"\n"])
        return
    # Node-RED's flow and its unencrypted credentials file.
    nid = "%s.%s" % (_hx(r, 8), _hx(r, 6))
    _seq(doc, form, ["[{\"id\":\"%s\",\"type\":\"e-mail\",\"server\":\"smtp.example.coop\",\"port\":\"465\",\"name\":\"" % nid, (e, "email"),
                     "\"},{\"id\":\"%s\",\"type\":\"twilio out\",\"number\":\"" % _hx(r, 16), (p, "phone"),
                     "\"}]\n// flows_cred.json\n{\"%s\":{\"userid\":\"" % nid, (e, "email"), "\",\"password\":\"", (_cstr(_pw(r)), "api_key"), "\"}}\n"])


# ------------------------------------------------------------ look-alikes

def _iswc(r):
    ds = _d(r, 9)
    chk = (10 - (1 + sum((k + 1) * int(c) for k, c in enumerate(ds))) % 10) % 10
    return "T-%s.%s.%s-%d" % (ds[:3], ds[3:6], ds[6:], chk)


def _creditor_id(r):
    nat = _d(r, 11)
    num = "".join(str(int(c, 36)) for c in nat + "DE00")
    return "DE%02dZZZ%s" % (98 - int(num) % 97, nat)


def _bad_ssn(r):
    """SSN-shaped, but with an area, group or serial no SSN has."""
    a = r.choice(["9%02d" % r.randint(0, 99), "000", "666"])
    # A 9xx area with a group outside the ITIN ranges (50-65, 70-88, 90-92, 94-99): not a taxpayer number either.
    return "%s-%02d-%04d" % (a, r.randint(1, 49), r.randint(1, 9999)) if r.random() < 0.7 else "%03d-00-%04d" % (r.randint(1, 899), r.randint(1, 9999))


def i_look(r, doc, m):
    q = r.randint
    hx = lambda n: _hx(r, n)
    kind = r.choice([
        # Print room.
        "printer_serial", "ipp_uuid", "dsc_bbox",
        # Radio and captioning.
        "smpte_tc", "vtt_timing", "isrc", "eidr", "isan",
        # Show control.
        "dmx_addr", "osc_path", "msc_sysex", "cue_number",
        # Lab instruments.
        "loinc", "accession_bad_ssn", "specimen_barcode", "ref_range",
        # Music.
        "iswc", "ismn", "lily_version",
        # Windows and init systems.
        "win_sid", "win_build", "reg_guid", "reg_dword", "unit_instance", "machine_id",
        # Nodes and wallets.
        "cometbft_address", "ipfs_cid", "tpub", "block_hash", "derivation_path", "tink_public",
        # Home automation and radios.
        "zigbee_ieee", "deconz_uniqueid", "deveui", "nodered_id",
        # Servers and backups.
        "ssha512", "cassandra_token", "borg_archive",
        # Money.
        "masked_pan", "creditor_id", "bad_iban", "bic",
        # Code and docs.
        "sourcemap", "rust_hex_path", "spec_section", "url_placeholder", "url_user_only",
    ])
    lead, make, tail = {
        "printer_serial": ("Serial Number: ", lambda: r.choice(["CNB", "VNB", "PHB"]) + "%d%s%05d" % (q(1, 9), r.choice(UP), q(0, 99999)), "\n"),
        "ipp_uuid": ("printer-uuid (uri) = urn:uuid:", lambda: _uuid(r), "\n"),
        "dsc_bbox": ("%%BoundingBox: ", lambda: "%d %d %d %d" % (q(0, 40), q(0, 40), r.choice([595, 612]), r.choice([792, 842])), "\n"),
        "smpte_tc": ("TC IN ", lambda: "%02d:%02d:%02d:%02d" % (q(0, 23), q(0, 59), q(0, 59), q(0, 24)), " (25 fps)\n"),
        "vtt_timing": ("", lambda: "%02d:%02d:%02d.%03d --> %02d:%02d:%02d.%03d" % (0, q(0, 59), q(0, 59), q(0, 999), 0, q(0, 59), q(0, 59), q(0, 999)), "\n"),
        "isrc": ("ISRC ", lambda: "%s-%s-%02d-%05d" % (r.choice(["FI", "NZ", "TO", "CK"]), _s(r, UPD, 3), q(20, 26), q(0, 99999)), "\n"),
        "eidr": ("EIDR: ", lambda: "10.5240/%s-%s-%s-%s-%s-%s" % (hx(4).upper(), hx(4).upper(), hx(4).upper(), hx(4).upper(), hx(4).upper(), r.choice(UPD)), "\n"),
        "isan": ("ISAN ", lambda: "%s-%s-%s-%s-%s-%s-%s-%s" % (hx(4).upper(), hx(4).upper(), hx(4).upper(), hx(4).upper(), r.choice(UPD), hx(4).upper(), hx(4).upper(), r.choice(UPD)), "\n"),
        "dmx_addr": ("Patch: dimmer 12 -> ", lambda: "%d.%03d" % (q(1, 16), q(1, 512)), "\n"),
        "osc_path": ("/eos/chan/", lambda: "%d/at/%d" % (q(1, 999), q(0, 100)), "\n"),
        "msc_sysex": ("MSC GO: ", lambda: "F0 7F %02X 02 01 01 %s F7" % (q(0, 0x7F), " ".join("3%d" % int(c) for c in str(q(1, 999)))), "\n"),
        "cue_number": ("Go cue ", lambda: "%d.%d" % (q(1, 400), q(1, 9)), " in list 1\n"),
        "loinc": ("OBX|1|NM|", lambda: "%d-%d^Glucose^LN" % (q(1000, 99999), q(0, 9)), "||5.4|mmol/L\n"),
        "accession_bad_ssn": ("Accession ", lambda: _bad_ssn(r), "\n"),
        "specimen_barcode": ("SPM|1|", lambda: "S%02d-%07d" % (q(24, 26), q(0, 9999999)), "||BLD\n"),
        "ref_range": ("reference range ", lambda: "%d.%d-%d.%d" % (q(1, 9), q(0, 9), q(10, 20), q(0, 9)), " mmol/L\n"),
        "iswc": ("ISWC ", lambda: _iswc(r), "\n"),
        "ismn": ("ISMN ", lambda: "979-0-%04d-%04d-%d" % (q(1000, 9999), q(0, 9999), q(0, 9)), "\n"),
        "lily_version": ("\\version \"", lambda: "2.%d.%d" % (q(18, 25), q(0, 40)), "\"\n"),
        "win_sid": ("Owner SID: ", lambda: "S-1-5-21-%d-%d-%d-%d" % (q(10 ** 9, 4 * 10 ** 9), q(10 ** 9, 4 * 10 ** 9), q(10 ** 8, 4 * 10 ** 9), q(1000, 1200)), "\n"),
        "win_build": ("OS build ", lambda: "10.0.%d.%d" % (q(19041, 26200), q(1, 5000)), "\n"),
        "reg_guid": ("[HKEY_CLASSES_ROOT\\CLSID\\{", lambda: _uuid(r, upper=True), "}]\n"),
        "reg_dword": ("\"ShowTickets\"=", lambda: "dword:%08x" % q(0, 0xffff), "\n"),
        "unit_instance": ("$ systemctl status ", lambda: r.choice(["openvpn-client@", "wg-quick@", "getty@", "borg-nightly@", "container-getty@"]) +
                          r.choice(["office", "wg0", "tty1", "home", "lis"]) + r.choice([".service", ".timer"]), "\n"),
        "machine_id": ("/etc/machine-id: ", lambda: hx(32), "\n"),
        "cometbft_address": ("validator address ", lambda: hx(40).upper(), "\n"),
        "ipfs_cid": ("added ", lambda: "bafybei" + _s(r, B32, 52), " rider.pdf\n"),
        "tpub": ("xpub: ", lambda: _bip32(r, BIP32_PUB[r.choice(sorted(BIP32_PUB))]), "\n"),
        "block_hash": ("block_id.hash: ", lambda: hx(64).upper(), "\n"),
        "tink_public": ("{\"primaryKeyId\":%d,\"key\":[{\"keyData\":{\"typeUrl\":\"type.googleapis.com/google.crypto.tink.EcdsaPublicKey\",\"value\":\"" % q(10 ** 8, 4 * 10 ** 9),
                        lambda: _b64(bytes.fromhex("1206080310021802") + bytes.fromhex("1a20") + _rb(r, 32) + bytes.fromhex("2220") + _rb(r, 32)),
                        "\",\"keyMaterialType\":\"ASYMMETRIC_PUBLIC\"},\"status\":\"ENABLED\",\"outputPrefixType\":\"TINK\"}]}\n"),
        "derivation_path": ("derivation: ", lambda: "m/%d'/%d'/0'/0/%d" % (r.choice([44, 49, 84, 86]), r.choice([0, 1]), q(0, 99)), "\n"),
        "zigbee_ieee": ("ieee_address: '", lambda: "0x00124b00%s" % hx(8), "'\n"),
        "deconz_uniqueid": ("\"uniqueid\": \"", lambda: "00:12:4b:00:%s:%s:%s:%s-01-0006" % (hx(2), hx(2), hx(2), hx(2)), "\",\n"),
        "deveui": ("dev_eui = ", lambda: hx(16).upper(), "\n"),
        "nodered_id": ("{\"id\":\"", lambda: "%s.%s" % (hx(8), hx(6)), "\",\"type\":\"inject\"}\n"),
        "ssha512": ("crew:", lambda: "{SSHA512}" + _b64(_rb(r, 72)), ":1001:1001::/home/crew::\n"),
        "cassandra_token": ("initial_token: ", lambda: "-%d" % q(10 ** 17, 9 * 10 ** 18), "\n"),
        "borg_archive": ("Archive fingerprint: ", lambda: hx(64), "\n"),
        "masked_pan": ("paid with ", lambda: r.choice(["**** **** **** %04d" % q(0, 9999), "%06d******%04d" % (q(400000, 559999), q(0, 9999)), "XXXX-XXXX-XXXX-%04d" % q(0, 9999)]), "\n"),
        "creditor_id": ("Gläubiger-ID ", lambda: _creditor_id(r), "\n"),
        "bad_iban": ("IBAN (typo, bounced): ", lambda: _bad_iban(r), "\n"),
        "bic": ("BIC ", lambda: _s(r, UP, 4) + r.choice(["DE", "OM", "MN", "CR", "NL"]) + _s(r, UPD, 2) + r.choice(["", "XXX", _s(r, UPD, 3)]), "\n"),
        "sourcemap": ("//# sourceMappingURL=data:application/json;base64,", lambda: _b64(json.dumps({"version": 3, "sources": ["cue.ts"], "mappings": "AAAA" + _s(r, "ACEGIKMOQSUWYacegikmoqsuwy", 12)}).encode()), "\n"),
        "rust_hex_path": ("    let level = ", lambda: r.choice(["fade::add", "dac::feed", "bead::face", "deaf::bad"]), "(level, step);\n"),
        "spec_section": ("see ASTM E1394 section ", lambda: "%d.%d.%d.%d" % (q(6, 10), q(1, 9), q(1, 20), q(1, 9)), "\n"),
        "url_placeholder": ("server: ", lambda: "mqtts://${MQTT_USER}:${MQTT_PASSWORD}@mqtt.example.coop:8883", "\n"),
        "url_user_only": ("DeviceURI ", lambda: r.choice(["ipps://boxoffice@print.example.net:631/ipp/print", "ftpes://deploy@ftp.example.theatre", "ircs://crew@irc.example.net:6697"]), "\n"),
    }[kind]
    doc.t(lead)
    _look(r, doc, make, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt, i_private_key, i_url, i_record]

FILLERS = ["\n", "\n\n", "%%EOF\n", "L|1|N\r\n", "@PJL EOJ\n", "\\end{document}\n", "#EXT-X-ENDLIST\n", "</tt>\n"]


def heldout22_doc(r, doc, m):
    """One text of the twenty-third family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
