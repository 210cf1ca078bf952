"""The nineteenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout19`; not run on its own.

A twentieth template family, written and committed before any detector
change of the round that tunes on heldout18, from real-world formats and
not from the detectors' code: the session that wrote it did not read the
detectors (`crates/tracegate/src/redact`, `finding*`), their
documentation, the detection sections of benches/README.md or any
split's report or spans; it read `detect_corpus.py`, `detect_values.py`
and `detect_score.py` for the interface and grepped the eighteen earlier
families only for surroundings and value shapes to keep clear of. Only
its summary and per-class table are looked at until the round's final
measurement.

Surroundings that no other family writes, most from genealogy and
medical-imaging dumps, amateur radio, industrial control and 3D
printing, film editing, e-learning and legal billing, load-testing
tools, and CI/CD and infrastructure tools no family used: GEDCOM
records (`PHON`, `EMAIL`, `SSN`, `NOTE`), `dcmdump`
output of DICOM headers (patient ids, telephone numbers, UIDs), ADIF QSO
logs (each field with its length), Stata `.do` files (`odbc load`),
NestedText, Typst, Quarto front matter, R Markdown chunks, Tekton
`Task` params and secrets, Spinnaker pipeline JSON, Octopus Deploy
variables, Woodpecker CI, Azure Pipelines variables, Packer HCL, CFEngine
promises, Crossplane `ProviderConfig`, Helmfile, Terraform `.tfvars`,
Vector VRL and sinks, PowerShell transcripts, Locust and Gatling load
tests, Insomnia exports, Zebra ZPL labels, IEC 61131-3 Structured Text,
OPC UA endpoints, `modpoll`, OctoPrint and Moonraker, CMX 3600 EDLs, IMS
QTI items, SCORM `cmi.*` runtime calls, LEDES 1998B invoices, G-code
comments, MIME mail with attachments and quoted-printable bodies,
`tcpdump`/`pflog` lines (an address followed by `.port`), ModSecurity
audit logs, Snort alerts, strongSwan `charon` logs, masscan, Azure NSG
flow logs, SIP `Via`/`Contact` headers, Windows `ipconfig`, `arp -a`,
`Get-NetIPAddress` and `Test-NetConnection`, radvd, `ip -6 route`; prose
in Sakha, Mingrelian, Kurmanji, Sorani, Zazaki, Dari, Balochi, Punjabi
(Shahmukhi), Kashmiri, Dogri, Konkani, Mongolian (traditional script),
Balinese (Balinese script), Coptic, Tuvaluan, Chavacano, Tigre, Tumbuka,
Alsatian, Nogai, Kumyk, Lezgian, Moksha, Veps, Ludian, Votic, Livonian,
Lule Sami, Skolt Sami, Central Yupik, Inupiaq, Tlingit, Zuni, Cheyenne,
Blackfoot, Dakota, Seneca, Choctaw, Chickasaw, Mixtec, Mazatec, Tzotzil,
Tzeltal, Mam, Q'eqchi', Kaqchikel, Shipibo and Asháninka (short phrases
written by the session, only roughly idiomatic; in many of these
languages and scripts only approximations), and US forms in Spanish,
Vietnamese, Chinese, Korean and Tagalog.

Values in shapes the earlier families did not write as such a set:
cards of 15-digit JCB (2131, 1800), 19-digit China T-Union, Australian
Bankcard, Laser, Solo, Switch, InstaPayment and 14-digit Diners (4-6-4),
with the usual brands, written in Khmer, Lao, Myanmar, Gujarati, Tamil
and Telugu digits or mathematical bold digits, grouped by en quads,
three-per-em spaces, Unicode hyphens, small hyphen-minus, full-width
solidus or full stop, split over four `<input>` boxes, in an EMV tag
dump (tag 5A, bytes spaced in pairs), in track-2 equivalent data (the
number before its `D` separator), and in Moneris, Converge, NMI,
Payeezy, PayFort, Flutterwave and Razorpay payloads; phones of Tokelau,
the Northern Marianas, the British Virgin Islands and Dominica, and of
Cambodia, Laos, Myanmar, Bhutan, Mongolia, India (Gujarati, Gurmukhi,
Odia, Telugu, Kannada, Malayalam, Tamil) and Guinea (N'Ko) in their own
digits, with narrow no-break spaces (French typography), Unicode
hyphens, small hyphen-minus or en quads, in RFC 3966 `tel:` URIs with
visual separators, `viber://` links with a percent-encoded plus, SIP
URIs with `user=phone`, jCard, WhatsApp chat exports (the sender is the
number), Asterisk `callerid`, FreeSWITCH bridge dial strings, Gatling
feeder CSVs, GEDCOM `PHON` and DICOM `PatientTelephoneNumbers`; SSNs in
GEDCOM `SSN`, DICOM other patient ids, NCPDP claims, I-9 digit boxes,
1099 recipient TINs, fixed-width mainframe records, with en dashes,
Unicode hyphens, small hyphen-minus and figure dashes, and in US forms
in five languages; emails with a small commercial at (as Chinese pages
write it), apostrophes and other atext in the local part, a quoted local
part, and in GEDCOM (individuals and submitters), Quarto, Typst,
PKG-INFO, CAA `iodef`, `proxyAddresses`, Woodpecker, Azure Pipelines,
Spinnaker notifications, a Tekton step's git config, LEDES invoices and
DICOM operator records; IBANs of Azerbaijan,
Bahrain, Bulgaria, Brazil, Belarus, Costa Rica, the Dominican Republic,
Egypt, the Faroes, Georgia, Gibraltar, Greenland, Guatemala, Hungary,
Israel, Iraq, Jordan, Kuwait, Kazakhstan, Lebanon, St Lucia,
Liechtenstein, Libya, Monaco, Moldova, Montenegro, North Macedonia,
Mauritania, Mauritius, Pakistan, Palestine, Qatar, Romania, the
Seychelles, San Marino, São Tomé, El Salvador, Timor-Leste, Turkey, the
Vatican and the British Virgin Islands, grouped by narrow no-break
spaces, between directional marks in Arabic text, in `payto://` URIs,
Peppol UBL, Factur-X, Stripe form posts, Wise and GoCardless JSON, UK
Open Banking and Berlin Group NextGenPSD2 payment requests;
provider tokens no family wrote (Doppler service accounts, Vault batch
tokens, Mapbox secret tokens, Airtable PATs, Dropbox short-lived tokens,
GitLab feed and SCIM tokens, Square, Duffel, Docker organisation tokens,
Volcengine, Meta and Instagram tokens, Shopify private apps, NuGet,
legacy Grafana keys, HubSpot private apps, Razorpay, Xendit, Midtrans,
Mercado Pago, PayPal access tokens, reCAPTCHA secrets), LND macaroons,
Nostr `nsec`, BIP32 `xprv` and Solana key pairs as byte arrays (bare key
material, labeled `api_key` as the project labels WireGuard and age
keys); private keys without armour (PKCS#8 and SEC1 DER in hex and in
base64 under a variable), PEM split into concatenated string literals,
PEM with escaped CRLF line ends, PEM wrapped at 76 columns, a PEM file
as a base64 MIME attachment, in a PowerShell here-string, a Typst raw
block, a CSV cell and an SQL string; JWTs in Kafka SASL OAUTHBEARER
messages, the Kubernetes WebSocket bearer subprotocol (base64url of the
token), GitHub Actions OIDC variables, implicit-flow URL fragments,
JWE compact tokens, unsecured `alg: none` tokens, quoted-printable mail
with soft line breaks, a libSQL `authToken`, and a cookie holding
base64 JSON around a JWT;
IPv4 after which tcpdump writes `.port`, IPv6 of cloud, mobile and
national ISP prefixes, upper case and unabbreviated, 6to4, Teredo and
ISATAP forms, with a zone id, followed by `.port`; URLs with a password
for Gel/EdgeDB, TDengine, IPP, Gopher, Hadoop `s3a`, OpenSearch,
Tarantool, Exasol, Databend, Dameng, AFP and Mumble.

Look-alikes no family wrote as such a set: public halves beside their
private items (Mapbox `pk.`, reCAPTCHA site keys of the same shape as
secrets, Flutterwave, Xendit and Midtrans public keys, Razorpay key ids,
Nostr `npub`, BIP32 `xpub`, `EC PARAMETERS` before an EC key, PGP
public key blocks, certificate requests), DICOM UIDs (dotted numbers
holding runs that look like IPv4), Fibre Channel WWNs and SMPTE
timecodes (colon hex), C++ and Rust paths whose segments are hex words,
Windows SIDs, ISO 11649 `RF` creditor references (mod-97 valid, not an
IBAN), SEPA creditor identifiers, LEIs, IFSC, BSB and ABA routing
numbers, IMEISVs, GTINs and SSCCs (drawn again where Luhn passes), EINs,
DUNS numbers, NDC drug codes, HS tariff codes, MMSIs, ISO 6346
container numbers, Maidenhead locators, radio frequencies, G-code
moves, ZPL commands, Modbus registers, OPC UA node ids, CAN ids, VINs,
Lightning invoices, IPFS CIDs, Ethereum transaction hashes, HashiCorp
Vault transit ciphertext, Fernet tokens, data-URI source maps and
pagination cursors (base64 JSON that is no JWT), `NextToken`s, PMCIDs,
ISSNs, ISRCs, LEDES task codes, ULIDs, KSUIDs, onion v3 addresses,
Stripe account ids, SSH key fingerprints, AWS ARNs (twelve-digit account
ids), BGP large communities and APRS callsigns with SSIDs. A look-alike any run of whose digits
(solid, or any run of groups split by one space, dash, dot or slash) of
12 to 19 digits passes Luhn is drawn again.

It reuses only the Luhn digit of `detect_corpus.py` and the small value
makers of `detect_values.py`. Its texts are drawn from their own seed
(`detect_corpus.py` offsets the split's seed by 19019). It is the
project's own, like the others.
"""
import base64
import json

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, mod97, with_check, family_doc

B32L = "abcdefghijklmnopqrstuvwxyz234567"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
LOWD = LOW + D
# Decimal digits of scripts no family wrote values in (each block's zero).
ZERO = {"khmr": 0x17E0, "laoo": 0x0ED0, "mymr": 0x1040, "tibt": 0x0F20, "mong": 0x1810, "gujr": 0x0AE6, "guru": 0x0A66,
        "orya": 0x0B66, "telu": 0x0C66, "knda": 0x0CE6, "mlym": 0x0D66, "taml": 0x0BE6, "nkoo": 0x07C0, "mathbold": 0x1D7CE}


def _digits(s, script):
    """`s` with its ASCII digits written in `script`'s digits."""
    z = ZERO[script]
    return "".join(chr(z + int(c)) if c.isascii() and c.isdigit() else c for c in s)


def _rb(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64r(r, n, url=False, pad=True):
    raw = _rb(r, n)
    s = base64.urlsafe_b64encode(raw).decode() if url else base64.b64encode(raw).decode()
    return s if pad else s.rstrip("=")


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _luhn_ok(ds):
    total = 0
    for k, c in enumerate(reversed(ds)):
        x = int(c) * (2 if k % 2 else 1)
        total += x - 9 if x > 9 else x
    return total % 10 == 0


def _digit_runs(s):
    """Runs of ASCII digits and the single separator after each (None when
    the next run is not joined by exactly one space, dash, dot or slash)."""
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


def _uuid(r):
    while True:
        h = "%032x" % r.getrandbits(128)
        h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
        u = "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])
        if not _cardish(u):
            return u


# ------------------------------------------------------------ value makers

IBANS = [
    ("AZ", lambda r: _s(r, UP, 4) + _s(r, UP + D, 20)),
    ("BH", lambda r: _s(r, UP, 4) + _s(r, UP + D, 14)),
    ("BG", lambda r: _s(r, UP, 4) + _d(r, 6) + _s(r, UP + D, 8)),
    ("BR", lambda r: _d(r, 23) + r.choice("CP") + r.choice("12")),
    ("BY", lambda r: _s(r, UP + D, 4) + _d(r, 4) + _s(r, UP + D, 16)),
    ("CR", lambda r: "0" + _d(r, 17)),
    ("DO", lambda r: _s(r, UP, 4) + _d(r, 20)),
    ("EG", lambda r: _d(r, 25)),
    ("FO", lambda r: _d(r, 14)),
    ("GE", lambda r: _s(r, UP, 2) + _d(r, 16)),
    ("GI", lambda r: _s(r, UP, 4) + _s(r, UP + D, 15)),
    ("GL", lambda r: _d(r, 14)),
    ("GT", lambda r: _s(r, UP + D, 4) + _s(r, UP + D, 20)),
    ("HU", lambda r: _d(r, 24)),
    ("IL", lambda r: _d(r, 19)),
    ("IQ", lambda r: _s(r, UP, 4) + _d(r, 15)),
    ("JO", lambda r: _s(r, UP, 4) + _d(r, 4) + _s(r, UP + D, 18)),
    ("KW", lambda r: _s(r, UP, 4) + _s(r, UP + D, 22)),
    ("KZ", lambda r: _d(r, 3) + _s(r, UP + D, 13)),
    ("LB", lambda r: _d(r, 4) + _s(r, UP + D, 20)),
    ("LC", lambda r: _s(r, UP, 4) + _s(r, UP + D, 24)),
    ("LI", lambda r: _d(r, 5) + _s(r, UP + D, 12)),
    ("LY", lambda r: _d(r, 21)),
    ("MC", lambda r: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
    ("MD", lambda r: _s(r, UP + D, 20)),
    ("ME", lambda r: _d(r, 18)),
    ("MK", lambda r: _d(r, 3) + _s(r, UP + D, 10) + _d(r, 2)),
    ("MR", lambda r: _d(r, 23)),
    ("MU", lambda r: _s(r, UP, 4) + _d(r, 19) + "MUR"),
    ("PK", lambda r: _s(r, UP, 4) + _s(r, UP + D, 16)),
    ("PS", lambda r: _s(r, UP, 4) + _s(r, UP + D, 21)),
    ("QA", lambda r: _s(r, UP, 4) + _s(r, UP + D, 21)),
    ("RO", lambda r: _s(r, UP, 4) + _s(r, UP + D, 16)),
    ("SC", lambda r: _s(r, UP, 4) + _d(r, 20) + r.choice(["SCR", "USD", "EUR"])),
    ("SM", lambda r: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
    ("ST", lambda r: _d(r, 21)),
    ("SV", lambda r: _s(r, UP, 4) + _d(r, 20)),
    ("TL", lambda r: _d(r, 19)),
    ("TR", lambda r: _d(r, 5) + "0" + _s(r, UP + D, 16)),
    ("VA", lambda r: _d(r, 18)),
    ("VG", lambda r: _s(r, UP, 4) + _d(r, 16)),
]
IBAN_LEN = {"AZ": 28, "BH": 22, "BG": 22, "BR": 29, "BY": 28, "CR": 22, "DO": 28, "EG": 29, "FO": 18, "GE": 22, "GI": 23,
            "GL": 18, "GT": 28, "HU": 28, "IL": 23, "IQ": 23, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21,
            "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MU": 30, "PK": 24, "PS": 29, "QA": 29, "RO": 24,
            "SC": 31, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TR": 26, "VA": 22, "VG": 24}


def _iban(r, countries=None):
    country, mk = r.choice([c for c in IBANS if countries is None or c[0] in countries])
    i = with_check(country, mk(r))
    assert len(i) == IBAN_LEN[country], (country, i)
    return i


def _group(s, sep=" ", n=4):
    return sep.join(s[k:k + n] for k in range(0, len(s), n))


def _card(r, m):
    """A card of a brand or length no family wrote, or a usual one, with its Luhn digit."""
    kind = r.choice(["jcb15", "tunion19", "bankcard", "laser", "solo", "switch", "instapayment", "diners14",
                     "visa", "visa", "mc", "mc2", "amex", "discover"])
    prefix, n = {
        "jcb15": (r.choice(["2131", "1800"]), 15),
        "tunion19": ("31" + _d(r, 2), 19),
        "bankcard": (r.choice(["5610", "560221", "560223", "560225"]), 16),
        "laser": (r.choice(["6304", "6706", "6771", "6709"]), r.choice([16, 19])),
        "solo": (r.choice(["6334", "6767"]), r.choice([16, 18, 19])),
        "switch": (r.choice(["4903", "4905", "4911", "4936", "564182", "633110", "6333", "6759"]), r.choice([16, 18, 19])),
        "instapayment": (str(r.randint(637, 639)), 16),
        "diners14": (r.choice(["36", "300", "301", "302", "303", "304", "305"]), 14),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover": (r.choice(["6011", "644", "645", "646", "647", "648", "649", "65"]), 16),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _groups(c):
    """How the number is grouped when written: 4-6-5 for 15 digits, 4-6-4
    for 14, fours otherwise (the tail shorter)."""
    if len(c) == 15:
        return [c[:4], c[4:10], c[10:]]
    if len(c) == 14:
        return [c[:4], c[4:10], c[10:]]
    return [c[k:k + 4] for k in range(0, len(c), 4)]


CARD_SEPS = {"enquad": "\u2000", "threeperem": "\u2004", "fourperem": "\u2005", "hyphen": "\u2010",
             "smallhyphen": "\ufe63", "fwsolidus": "\uff0f", "fwstop": "\uff0e", "space": " ", "dash": "-", "solid": ""}


def _card_shown(r, c):
    sep = r.choice(sorted(CARD_SEPS))
    return CARD_SEPS[sep].join(_groups(c)), sep


# Phones no family wrote in these digits, and a few territories.
SCRIPT_PHONES = [
    ("kh", "khmr", lambda r: "+855 %s %s %s" % (r.choice(["12", "17", "77", "89", "92", "96"]), _d(r, 3), _d(r, 3))),
    ("la", "laoo", lambda r: "+856 20 %s%s %s" % (r.choice("2579"), _d(r, 3), _d(r, 4))),
    ("mm", "mymr", lambda r: "+95 9 %s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 3))),
    ("bt", "tibt", lambda r: "+975 17 %s %s" % (_d(r, 3), _d(r, 3))),
    ("mn", "mong", lambda r: "+976 %s%s %s" % (r.choice(["88", "99", "95", "91"]), _d(r, 2), _d(r, 4))),
    ("in_gu", "gujr", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in_pa", "guru", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in_or", "orya", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in_te", "telu", lambda r: "+91 %s%s-%s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in_kn", "knda", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in_ml", "mlym", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("lk_ta", "taml", lambda r: "+94 7%s %s %s" % (r.choice("0125678"), _d(r, 3), _d(r, 4))),
    ("gn", "nkoo", lambda r: "+224 6%s%s %s %s %s" % (r.choice("2356"), _d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2))),
]
SCRIPT_PHONE_PROSE = {
    "khmr": "សូមទាក់ទង {} ", "laoo": "ກະລຸນາຕິດຕໍ່ {} ", "mymr": "ကျေးဇူးပြု၍ {} ကို ဆက်သွယ်ပါ ", "tibt": "ཁ་པར་ {} ",
    "mong": "ᠤᠳᠠᠰᠤ {} ", "gujr": "કૃપા કરીને {} પર સંપર્ક કરો ", "guru": "ਕਿਰਪਾ ਕਰਕੇ {} 'ਤੇ ਸੰਪਰਕ ਕਰੋ ", "orya": "ଦୟାକରି {} ରେ ଯୋଗାଯୋଗ କରନ୍ତୁ ",
    "telu": "దయచేసి {} కు సంప్రదించండి ", "knda": "ದಯವಿಟ್ಟು {} ಗೆ ಸಂಪರ್ಕಿಸಿ ", "mlym": "ദയവായി {} എന്ന നമ്പറിൽ ബന്ധപ്പെടുക ",
    "taml": "தயவுசெய்து {} என்ற எண்ணில் தொடர்பு கொள்ளவும் ", "nkoo": "ߞߊ߬ ߞߎ߲߬ߓߊ߲߬ {} ",
}

PHONES = [
    ("tk", lambda r: "+690 %s%s" % (r.choice("2378"), _d(r, r.choice([3, 4])))),
    ("mp", lambda r: "+1 670 %s%s %s" % (r.choice("2345789"), _d(r, 2), _d(r, 4))),
    ("vg", lambda r: "+1 284 %s%s %s" % (r.choice("3456"), _d(r, 2), _d(r, 4))),
    ("dm", lambda r: "+1 767 %s%s %s" % (r.choice("2456"), _d(r, 2), _d(r, 4))),
    ("fr", lambda r: "+33 %s %s %s %s %s" % (r.choice("67"), _d(r, 2), _d(r, 2), _d(r, 2), _d(r, 2))),
    ("be", lambda r: "+32 4%s%s %s %s %s" % (r.choice("5789"), _d(r, 1), _d(r, 2), _d(r, 2), _d(r, 2))),
    ("ch", lambda r: "+41 7%s %s %s %s" % (r.choice("6789"), _d(r, 3), _d(r, 2), _d(r, 2))),
    ("kz", lambda r: "+7 (7%s) %s-%s-%s" % (r.choice(["01", "05", "07", "47", "77"]), _d(r, 3), _d(r, 2), _d(r, 2))),
    ("pl", lambda r: "+48 %s%s %s %s" % (r.choice("5678"), _d(r, 2), _d(r, 3), _d(r, 3))),
    ("za", lambda r: "+27 %s%s %s %s" % (r.choice("678"), _d(r, 1), _d(r, 3), _d(r, 4))),
    ("mx", lambda r: "+52 1 %s %s %s" % (r.choice(["55", "33", "81"]), _d(r, 4), _d(r, 4))),
    ("ng", lambda r: "+234 %s0%s %s %s" % (r.choice("789"), r.choice("3689"), _d(r, 3), _d(r, 4))),
]
PHONE_SEPS = {"nnbsp": "\u202f", "hyphen": "\u2010", "smallhyphen": "\ufe63", "enquad": "\u2000"}


def _phone(r):
    return r.choice(PHONES)


def _e164(p):
    return "+" + "".join(c for c in p if c.isdigit())


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([2, 5, 14, 23, 27, 36, 39, 46, 49, 58, 61, 62, 78, 79, 82, 86, 88, 89, 92, 94, 101, 109,
                                      110, 112, 118, 125, 131, 138, 145, 151, 154, 159, 163, 176, 178, 182, 188, 190, 195, 200, 212]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2600:1900:%s:%s::%s" % (g(), g(), g()),                            # Google Cloud
        lambda: "2600:1f18:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # AWS
        lambda: "2603:1020:%s:%s::%s" % (g(), g(), g()),                            # Azure
        lambda: "2606:4700:%s::%s:%s" % (g(), g(), g()),                            # Cloudflare
        lambda: "2601:%x:%s:%s:%s:%s:%s:%s" % (r.randint(0x100, 0xfff), g(), g(), g(), g(), g(), g()),  # a US cable ISP
        lambda: "2003:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),  # a German ISP
        lambda: "2a01:e0a:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),      # a French ISP
        lambda: "2a02:8108:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # a German cable ISP
        lambda: "2001:8003:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # an Australian ISP
        lambda: "240b:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),  # a Japanese ISP
        lambda: "2409:40%02x:%s:%s:%s:%s:%s:%s" % (r.randint(0, 255), g(), g(), g(), g(), g(), g()),  # an Indian mobile carrier
        lambda: "2401:4900:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # another Indian mobile carrier
        lambda: "240e:%s:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g(), g()),  # a Chinese ISP
        lambda: "2804:14c:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),      # a Brazilian ISP
        lambda: "2806:%s:%s:%s::%s" % (g(), g(), g(), g()),                         # a Mexican ISP
    ])()


def _jwt(r, alg=None, body=None, typ="JWT", sig=True):
    alg = alg or r.choice(["RS256", "ES256", "PS256", "EdDSA", "HS512"])
    head = {"alg": alg}
    if typ:
        head["typ"] = typ
    if r.random() < 0.5 and alg != "none":
        head["kid"] = r.choice([_uuid(r), _s(r, B64URL, 43), _hx(r, 40)])
    if body is None:
        iat = r.randint(1_760_000_000, 1_790_000_000)
        body = {"iss": r.choice(["https://sso.example.coop/realms/field", "https://login.example.museum",
                                 "https://token.actions.githubusercontent.com", "https://idp.example.aero/oauth2"]),
                "sub": r.choice([_uuid(r), "%s:%s" % (r.choice(["station", "dock", "press"]), _s(r, LOWD, 8))]),
                "aud": r.choice(["edl-review", "plc-gateway", "ledes-portal", _hx(r, 24)]),
                "iat": iat, "exp": iat + r.choice([300, 900, 3600])}
    n = {"RS256": 342, "PS256": 342, "ES256": 86, "EdDSA": 86, "HS512": 86, "HS256": 43}.get(alg, 0)
    s = _s(r, B64URL, n) if sig and n else ""
    return "%s.%s.%s" % (_b64u(json.dumps(head, separators=(",", ":"))), _b64u(json.dumps(body, separators=(",", ":"))), s)


def _pem(r, kind=None, width=64, eol="\n"):
    kind = kind if kind is not None else r.choice(["", "RSA ", "EC "])
    der = {"": _rsa_der, "RSA ": _rsa1_der, "EC ": _ec_der}[kind](r)
    body = base64.b64encode(der).decode()
    lines = [body[k:k + width] for k in range(0, len(body), width)]
    return eol.join(["-----BEGIN %sPRIVATE KEY-----" % kind] + lines + ["-----END %sPRIVATE KEY-----" % kind]), kind.strip().lower() or "pkcs8"


def _pw(r):
    return _tok(r, r.randint(12, 22)) + r.choice(["", "", "!", "#", "%", "^", "&", "*", "~", "_"])


def _url_pw(r):
    return _tok(r, r.randint(10, 22)) + r.choice(["", "", "", "%21", "%23", "%26", "%2F", "%40", "_", "~"])


# ------------------------------------------------------------ prose
#
# Short phrases written by the session, only roughly idiomatic (many of
# these languages and scripts it does not read; the phrase is then an
# approximation).

PROSE = {
    "sah": "Бука суруйуҥ {} ",                           # Sakha
    "xmf": "თხოვა, მოჭარით {} ",                         # Mingrelian
    "kmr": "Ji kerema xwe re binivîsin {} ",             # Kurmanji
    "ckb": "تکایە پەیوەندی بکە بە \u200e{}\u200e ",        # Sorani
    "diq": "Kerem ke, binuse {} ",                       # Zazaki
    "prs": "لطفاً با \u200e{}\u200e به تماس شوید ",          # Dari
    "bal": "مہربانی کن، \u200e{}\u200e ءَ نبیس ",            # Balochi
    "pnb": "مہربانی کر کے \u200e{}\u200e تے رابطہ کرو ",      # Punjabi (Shahmukhi)
    "ks": "مہربٲنی کٔرِتھ \u200e{}\u200e پؠٹھ رابطہٕ کٔریو ",   # Kashmiri
    "doi": "कृपा करियै {} पर गल्ल करो ",                    # Dogri
    "gom": "उपकार करून {} चेर संपर्क करात ",                 # Konkani
    "mvf": "ᠲᠠ {} ᠳᠤ ᠬᠠᠷᠢᠯᠴᠠᠭᠠᠷᠠᠢ ",                         # Mongolian (traditional script)
    "ban": "ᬲᬸᬓ᭄ᬱ᭄ᬫ {} ",                                # Balinese (script)
    "cop": "ⲁⲣⲓⲟⲩⲱ ⲥϧⲁⲓ ⲛ̀ {} ",                           # Coptic
    "tvl": "Fakamolemole, tusi mai ki {} ",              # Tuvaluan
    "cbk": "Por favor, escribi con {} ",                 # Chavacano
    "tig": "በጃካ ምስል {} ተራከብ ",                          # Tigre
    "tum": "Tikupemphani, lembani ku {} ",               # Tumbuka
    "gsw_als": "Bitte schriiwe an {} ",                  # Alsatian
    "nog": "Ярдам этип, {} ге язынъыз ",                 # Nogai
    "kum": "Къайгъырып, {} гъа языгъыз ",                # Kumyk
    "lez": "Буюрун, {} кхьихь ",                         # Lezgian
    "mdf": "Ванфтама, сёрмадык {} ",                     # Moksha
    "vep": "Olgat hüväd, kirjutagat {} ",                # Veps
    "lud": "Olgatte hyvät, kirjuttakkat {} ",            # Ludian
    "vot": "Olkaa hüvät, kirjuttagaa {} ",               # Votic
    "liv": "Pūoļtõ, kēratõgid {} ",                      # Livonian
    "smj": "Ålgå tjálla {} ",                            # Lule Sami
    "sms": "Leäkku, ǩeʹrjted {} ",                       # Skolt Sami
    "esu": "Quyana, igaqerluten {} ",                    # Central Yupik
    "ik": "Quyanaq, aglaksiruŋ {} ",                     # Inupiaq
    "tli": "Gunalchéesh, {} x'éit wutuwashee ",          # Tlingit
    "zun": "Elahkwa, {} a:chi ",                         # Zuni
    "chy": "Néá'ešemeno, {} ",                           # Cheyenne
    "bla": "Nitsíkohtaahsi'taki, {} ",                   # Blackfoot
    "dak": "Wóphida, {} ektá wówapi ",                   # Dakota
    "see": "Nyá:wëh, {} ",                               # Seneca
    "cho": "Yakoke, {} ",                                # Choctaw
    "cic": "Chokma, {} ",                                # Chickasaw
    "mix": "Ña kuu, taa tutu nu {} ",                    # Mixtec
    "maz": "Tsjoako, {} ",                               # Mazatec
    "tzo": "Kolaval, ts'iba ta {} ",                     # Tzotzil
    "tzh": "Wokolawal, ts'ibaya ta {} ",                 # Tzeltal
    "mam": "Chjonte, tz'ib'ina te {} ",                  # Mam
    "kek": "Bantiox, tz'iib'ank re {} ",                 # Q'eqchi'
    "cak": "Matyöx, katz'ib'an chi re {} ",              # Kaqchikel
    "shp": "Ja bi, {} ",                                 # Shipibo
    "cni": "Pasonki, {} ",                               # Asháninka
}


def _prose(r, doc, value, cls, form_prefix, word, claimed=True):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n", claimed)


# ------------------------------------------------------------ carriers
#
# Surroundings every class is written in: genealogy and imaging dumps,
# radio logs, statistics and publishing, CI/CD and infrastructure tools,
# load tests, labels, PLCs and e-learning. Each takes a label and gives
# the text before and after the value.

def _carrier(r, label):
    form = r.choice(["gedcom_note", "dcmdump", "adif", "stata", "nestedtext", "typst", "quarto", "rmd", "tekton", "spinnaker",
                     "octopus", "woodpecker", "azure_pipelines", "packer", "cfengine", "helmfile", "tfvars", "vrl",
                     "pwsh_transcript", "locust", "gatling", "insomnia", "zpl", "st61131", "qti", "scorm", "edl", "gcode"])
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    camel = "".join(w.title() if k else w for k, w in enumerate(key.split("_")))
    pascal = camel[:1].upper() + camel[1:]
    up = key.upper()
    lead, tail = {
        "gedcom_note": ("0 @I%d@ INDI\n1 NAME Aigerim /Seitkali/\n1 NOTE %s: " % (r.randint(1, 9999), label), "\n"),
        "dcmdump": ("(0032,1060) LO [Follow-up, %s: " % label, "]  #  %d, 1 RequestedProcedureDescription\n" % r.randint(20, 64)),
        "adif": ("<CALL:5>%s <QSO_DATE:8>2026%02d%02d <COMMENT:%%d>%s " % (_s(r, UP, 2) + _d(r, 1) + _s(r, UP, 2), r.randint(1, 12), r.randint(1, 28), label),
                 " <EOR>\n"),
        "stata": ("local %s \"" % key, "\"\ndisplay \"`%s'\"\n" % key),
        "nestedtext": ("contact:\n    name: Aigerim Seitkali\n    %s: " % key.replace("_", " "), "\n"),
        "typst": ("#let %s = \"" % key.replace("_", "-"), "\"\n#%s\n" % key.replace("_", "-")),
        "quarto": ("---\ntitle: \"Station report\"\nparams:\n  %s: \"" % key, "\"\n---\n"),
        "rmd": ("```{r setup}\n%s <- \"" % key, "\"\n```\n"),
        "tekton": ("  params:\n    - name: %s\n      value: \"" % key.replace("_", "-"), "\"\n"),
        "spinnaker": ("{\"type\": \"evaluateVariables\", \"variables\": [{\"key\": \"%s\", \"value\": \"" % camel, "\"}]}\n"),
        "octopus": ("Octopus.Action.Script.ScriptBody: Write-Host \"%s is " % pascal, "\"\n"),
        "woodpecker": ("steps:\n  notify:\n    image: alpine\n    environment:\n      %s: \"" % up, "\"\n"),
        "azure_pipelines": ("variables:\n  - name: %s\n    value: '" % camel, "'\n"),
        "packer": ("variable \"%s\" {\n  type    = string\n  default = \"" % key, "\"\n}\n"),
        "cfengine": ("bundle agent station\n{\n  vars:\n      \"%s\" string => \"" % key, "\";\n}\n"),
        "helmfile": ("releases:\n  - name: station\n    set:\n      - name: contact.%s\n        value: " % camel, "\n"),
        "tfvars": ("%s = \"" % key, "\"\n"),
        "vrl": ("if .%s == \"" % key, "\" {\n  .flagged = true\n}\n"),
        "pwsh_transcript": ("**********************\nPS C:\\ops> $%s = '" % pascal, "'\nPS C:\\ops> Stop-Transcript\n"),
        "locust": ("    @task\n    def lookup(self):\n        self.client.get(\"/api/lookup\", params={\"%s\": \"" % key, "\"})\n"),
        "gatling": ("  .exec(http(\"lookup\").get(\"/api/lookup\").queryParam(\"%s\", \"" % camel, "\"))\n"),
        "insomnia": ("{\"_type\": \"request\", \"name\": \"Lookup\", \"body\": {\"text\": \"{\\\"%s\\\": \\\"" % camel, "\\\"}\"}}\n"),
        "zpl": ("^XA\n^FO40,60^A0N,28,28^FD%s: " % label, "^FS\n^XZ\n"),
        "st61131": ("VAR CONSTANT\n    s%s : STRING(64) := '" % pascal, "';\nEND_VAR\n"),
        "qti": ("<qti-correct-response>\n  <qti-value>", "</qti-value>\n</qti-correct-response>\n"),
        "scorm": ("API.LMSSetValue(\"cmi.interactions.0.student_response\", \"", "\");\n"),
        "edl": ("%03d  AX       V     C        01:00:%02d:%02d 01:00:%02d:%02d 00:00:00:00 00:00:04:00\n* COMMENT: %s " % (
            r.randint(1, 300), r.randint(0, 59), r.randint(0, 23), r.randint(0, 59), r.randint(0, 23), label), "\n"),
        "gcode": ("; printed for job %d, %s " % (r.randint(100, 9999), label), "\nG28 ; home all axes\n"),
    }[form]
    return form, lead, tail


def _carry(r, doc, label, value, cls, form_prefix, claimed=True):
    f, lead, tail = _carrier(r, label)
    if f == "adif":
        # An ADIF field gives its length; the comment holds the label and the value.
        lead = lead % (len(label) + 1 + len(value))
    _put(doc, lead, value, cls, "%s_%s" % (form_prefix, f), tail, claimed)


# ------------------------------------------------------------ items

def _email(r):
    local = r.choice(["aigerim.s", "o'sullivan", "d'angelo.ops", "tuilagi", "nyambura+qso", "ops/alerts", "first=last",
                      "station.7", "m.ahanu", "kaqchikel.edu", "plc-gateway", "edl_review", "c.okonkwo", "renata.v",
                      "Bayarmaa.B", "qsl#mgr", "lab&scan", "sokha", "tsering.d", "vientiane.ops"])
    dom = r.choice(["radio.example.coop", "pacs.example.museum", "mill.example.aero", "press.example.travel", "lab.example.ac",
                    "fabrik.example.de", "edit.example.film", "lms.example.edu", "billing.example.law", "grid.example.energy",
                    "Example.Coop", "mx.example.bt", "post.example.mn"])
    return "%s@%s" % (local, dom)


def i_email(r, doc, m):
    form = r.choice(["gedcom", "quarto_author", "typst_link", "pkg_info", "caa_iodef", "proxy_addresses", "woodpecker_env",
                     "azure_requested_for", "ledes", "dcm_operator", "spinnaker_notification", "tekton_git", "gedcom_subm", "small_at",
                     "quoted_local", "carrier", "carrier", "carrier", "prose"])
    e = _email(r)
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        _carry(r, doc, "e-mail", e, "email", "carrier")
        return
    if form == "small_at":
        # Chinese pages write a small commercial at against harvesters.
        local, dom = e.split("@")
        _put(doc, r.choice(["联系邮箱：", "電郵：", "投稿信箱 "]), local + "\ufe6b" + dom, "email", form, r.choice(["\n", "（请将﹫换成@）\n"]))
        return
    if form == "quoted_local":
        v = "\"%s %s\"@%s" % (r.choice(["aigerim", "station", "night shift"]), r.choice(["seitkali", "seven", "desk"]), e.split("@")[1])
        _put(doc, "Reply-To: ", v, "email", form, "\n")
        return
    lead, tail = {
        "gedcom": ("0 @I%d@ INDI\n1 NAME Renata /Vieira/\n1 EMAIL " % r.randint(1, 9999), "\n1 BIRT\n2 DATE 12 MAR 1961\n"),
        "quarto_author": ("---\ntitle: \"QSO statistics\"\nauthor:\n  - name: Aigerim Seitkali\n    email: ", "\n    affiliations:\n      - name: Station 7\n---\n"),
        "typst_link": ("Questions: #link(\"mailto:", "\")[write to the station]\n"),
        "pkg_info": ("Metadata-Version: 2.3\nName: edl-tools\nVersion: 0.4.1\nAuthor-email: Renata Vieira <", ">\n"),
        "caa_iodef": ("example.coop.  3600  IN  CAA  0 iodef \"mailto:", "\"\n"),
        "proxy_addresses": ("proxyAddresses: smtp:", "\nproxyAddresses: X500:/o=ExchangeLabs/ou=Exchange Administrative Group/cn=Recipients/cn=%s\n" % _hx(r, 32)),
        "woodpecker_env": ("CI_COMMIT_AUTHOR=renata\nCI_COMMIT_AUTHOR_EMAIL=", "\nCI_COMMIT_BRANCH=main\n"),
        "azure_requested_for": ("##[debug]Build.RequestedFor=Renata Vieira\n##[debug]Build.RequestedForEmail=", "\n"),
        "ledes": ("LEDES1998B[]\nINVOICE_DATE|INVOICE_NUMBER|CLIENT_ID|LAW_FIRM_MATTER_ID|TIMEKEEPER_NAME|TIMEKEEPER_EMAIL[]\n2026%02d%02d|INV-%d|CL%d|M-%d|Okonkwo, C|" % (
            r.randint(1, 12), r.randint(1, 28), r.randint(1000, 9999), r.randint(100, 999), r.randint(1000, 9999)), "[]\n"),
        "spinnaker_notification": ("\"notifications\": [{\"type\": \"email\", \"level\": \"pipeline\", \"address\": \"", "\", \"when\": [\"pipeline.failed\"]}],\n"),
        "tekton_git": ("      script: |\n        git config --global user.name \"tekton-bot\"\n        git config --global user.email \"", "\"\n        git commit -am \"bump\"\n"),
        "gedcom_subm": ("0 @SUBM1@ SUBM\n1 NAME Renata Vieira\n1 ADDR Rua das Flores 12\n1 EMAIL ", "\n1 LANG Portuguese\n"),
        "dcm_operator": ("(0008,1070) PN [Vieira^Renata]  #  14, 1 OperatorsName\n(0040,1103) LO [", "]  #  %d, 1 PersonTelecomInformation\n" % len(e)),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["tel_uri", "viber", "sip_user_phone", "jcard", "whatsapp_export", "gedcom_phon", "dcm_phone", "seps",
                     "asterisk_callerid", "freeswitch_dial", "gatling_feeder",
                     "script", "script", "script", "carrier", "carrier", "carrier", "prose"])
    if form == "script":
        cc, script, mk = r.choice(SCRIPT_PHONES)
        lead, tail = SCRIPT_PHONE_PROSE[script].split("{}")
        _put(doc, lead, _digits(mk(r), script), "phone", "script_%s_%s" % (script, cc), tail + "\n")
        return
    cc, mk = _phone(r)
    p = mk(r)
    e = _e164(p)
    if form == "prose":
        _prose(r, doc, p, "phone", "prose_" + cc, "tel.")
        return
    if form == "carrier":
        _carry(r, doc, "phone", p, "phone", "carrier_" + cc)
        return
    if form == "seps":
        sep = r.choice(sorted(PHONE_SEPS))
        head, *rest = p.split(" ")
        shown = head + PHONE_SEPS[sep] + PHONE_SEPS[sep].join(rest) if sep in ("nnbsp", "enquad") else head + " " + PHONE_SEPS[sep].join(rest)
        _put(doc, r.choice(["Tél.\u00a0: ", "Tel.: ", "Mobil: ", "Phone\u2003"]), shown, "phone", "seps_%s_%s" % (sep, cc), "\n")
        return
    if form == "tel_uri":
        # RFC 3966 keeps visual separators in a global number.
        v = "tel:" + e[:1] + "-".join(p[1:].replace("(", "").replace(")", "").replace("-", " ").split())
        _put(doc, "<a href=\"", v, "phone", "tel_uri_" + cc, "\">Call the station</a>\n")
        return
    if form == "viber":
        _put(doc, "<a href=\"viber://chat?number=", "%2B" + e[1:], "phone", "viber_" + cc, "\">Viber</a>\n")
        return
    if form == "sip_user_phone":
        _put(doc, "Contact: <sip:", e, "phone", "sip_user_phone_" + cc, "@sip.example.coop;user=phone>;expires=3600\n")
        return
    if form == "whatsapp_export":
        doc.t("[%02d/%02d/2026, %02d:%02d:%02d] " % (r.randint(1, 28), r.randint(1, 12), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59)))
        doc.item(p, "phone", "t_whatsapp_export_" + cc)
        doc.t(": %s\n" % r.choice(["the press is down again", "EDL sent", "QSL card arrived", "on my way"]))
        return
    lead, v, tail = {
        "jcard": ("[\"vcard\", [[\"version\", {}, \"text\", \"4.0\"], [\"fn\", {}, \"text\", \"Renata Vieira\"], [\"tel\", {\"type\": [\"cell\"]}, \"uri\", \"tel:",
                  e, "\"]]]\n"),
        "asterisk_callerid": ("[station7]\ntype=endpoint\ncontext=from-internal\ncallerid=\"Station 7\" <", e, ">\naors=station7\n"),
        "freeswitch_dial": ("<action application=\"bridge\" data=\"sofia/gateway/carrier/", e, "\"/>\n"),
        "gatling_feeder": ("user,phone,role\nload01,", p, ",operator\n"),
        "gedcom_phon": ("0 @I%d@ INDI\n1 NAME Tuilagi /Faleolo/\n1 RESI\n2 PHON " % r.randint(1, 9999), p, "\n"),
        "dcm_phone": ("(0010,0010) PN [Faleolo^Tuilagi]  #  16, 1 PatientName\n(0010,2154) SH [", p,
                      "]  #  %d, 1 PatientTelephoneNumbers\n" % (len(p) + len(p) % 2)),
    }[form]
    _put(doc, lead, v, "phone", "%s_%s" % (form, cc), tail)


SSN_PROSE = [
    ("es", "Número de Seguro Social: ", "\n"),
    ("vi", "Số An Sinh Xã Hội: ", "\n"),
    ("zh", "社会安全号码（SSN）：", "\n"),
    ("ko", "사회보장번호: ", "\n"),
    ("tl", "Numero ng Social Security: ", "\n"),
]


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["gedcom", "dcm_other_id", "ncpdp", "i9_boxes", "f1099", "mainframe", "endash", "hyphen", "smallhyphen",
                     "figdash", "lang", "lang", "carrier", "carrier", "carrier"])
    if form == "carrier":
        _carry(r, doc, r.choice(["SSN", "social security number"]), dashed, "us_ssn", "carrier")
        return
    if form == "lang":
        lang, lead, tail = r.choice(SSN_PROSE)
        _put(doc, lead, dashed, "us_ssn", "lang_" + lang, tail)
        return
    if form == "mainframe":
        # A fixed-width extract: the SSN is solid under its column header.
        doc.t("EMPNO  LAST-NAME       FIRST-NAME  SSN        HIRE-DT\n%06d %-15s %-11s " % (r.randint(1, 999999), r.choice(["FALEOLO", "OKONKWO", "SEITKALI"]), r.choice(["TUILAGI", "CHIDI", "AIGERIM"])))
        doc.item(a + g + s, "us_ssn", "t_mainframe")
        doc.t(" 2026%02d%02d\n" % (r.randint(1, 12), r.randint(1, 28)))
        return
    lead, v, tail = {
        "gedcom": ("0 @I%d@ INDI\n1 NAME Chidi /Okonkwo/\n1 SSN " % r.randint(1, 9999), dashed, "\n1 DEAT\n2 DATE 1998\n"),
        "dcm_other_id": ("(0010,1002) SQ (Sequence with explicit length #=1)  #  58, 1 OtherPatientIDsSequence\n  (fffe,e000) na (Item with explicit length #=3)\n"
                         "    (0010,0020) LO [", dashed, "]  #  12, 1 PatientID\n    (0010,0021) LO [SSA]  #   4, 1 IssuerOfPatientID\n    (0010,0022) CS [TEXT]  #   4, 1 TypeOfPatientID\n"),
        "ncpdp": ("AM01\n331-CX PATIENT ID QUALIFIER: 01 (Social Security Number)\n332-CY PATIENT ID: ", a + g + s, "\n304-C4 DATE OF BIRTH: 19%02d%02d%02d\n" % (
            r.randint(40, 99), r.randint(1, 12), r.randint(1, 28))),
        "i9_boxes": ("Section 1. U.S. Social Security Number\n", " ".join(a) + " - " + " ".join(g) + " - " + " ".join(s), "\nEmployee's E-mail Address\n"),
        "f1099": ("Form 1099-NEC\nPAYER'S TIN          RECIPIENT'S TIN\n%02d-%07d           " % (r.randint(10, 99), r.randint(0, 9999999)), dashed, "\n"),
        "endash": ("SSN\u00a0", "%s\u2013%s\u2013%s" % (a, g, s), "\n"),
        "hyphen": ("Social Security Number: ", "%s\u2010%s\u2010%s" % (a, g, s), "\n"),
        "smallhyphen": ("SSN：", "%s\ufe63%s\ufe63%s" % (a, g, s), "\n"),
        "figdash": ("SSN ", "%s\u2012%s\u2012%s" % (a, g, s), "\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    form = r.choice(["moneris", "converge", "nmi", "payeezy", "payfort", "flutterwave", "razorpay", "input_boxes", "emv_tlv",
                     "track2", "script", "script", "sep", "sep", "carrier", "carrier", "prose"])
    if form == "script":
        script = r.choice(["khmr", "laoo", "mymr", "gujr", "taml", "telu", "mathbold"])
        shown = _digits(r.choice([" ".join(_groups(c)), c]), script)
        word = {"khmr": "លេខកាត ", "laoo": "ເລກບັດ ", "mymr": "ကတ်နံပါတ် ", "gujr": "કાર્ડ નંબર ", "taml": "அட்டை எண் ",
                "telu": "కార్డ్ నంబర్ ", "mathbold": "💳 𝐂𝐚𝐫𝐝: "}[script]
        _put(doc, word, shown, "credit_card", "script_%s_%s" % (script, kind), "\n")
        return
    if form == "input_boxes":
        gs = _groups(c)
        v = gs[0] + "".join("\" maxlength=\"4\"><input name=\"cc%d\" value=\"%s" % (k + 2, x) for k, x in enumerate(gs[1:]))
        _put(doc, "<input name=\"cc1\" value=\"", v, "credit_card", "input_boxes_" + kind, "\" maxlength=\"4\">\n")
        return
    if form == "emv_tlv":
        # Tag 5A holds the PAN in BCD: a hex dump shows its digits two by two (F-padded when odd).
        digits = c + ("F" if len(c) % 2 else "")
        pairs = " ".join(digits[k:k + 2] for k in range(0, len(digits), 2))
        pad = "F" if len(c) % 2 else ""
        _put(doc, "EMV TLV:\n  9F02 06 00 00 00 00 %02d 00\n  5A %02X " % (r.randint(10, 99), len(digits) // 2), pairs[:len(pairs) - len(pad)], "credit_card",
             "emv_tlv_" + kind, pad + "\n  5F24 03 %02d %02d 31\n" % (r.randint(27, 31), r.randint(1, 12)))
        return
    if form == "track2":
        while True:
            disc = "D%02d%02d201%s" % (r.randint(27, 31), r.randint(1, 12), _d(r, 9))
            if not _cardish(disc):
                break
        _put(doc, "  57 Track 2 Equivalent Data: ", c, "credit_card", "track2_" + kind, disc + "\n")
        return
    shown, sep = _card_shown(r, c)
    if form == "sep":
        _put(doc, r.choice(["Card: ", "PAN ", "Kartennummer: ", "N° de carte : "]), shown, "credit_card", "sep_%s_%s" % (sep, kind), "\n")
        return
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s_%s" % (sep, kind), "card")
        return
    if form == "carrier":
        _carry(r, doc, r.choice(["card number", "card"]), shown, "credit_card", "carrier_%s_%s" % (sep, kind))
        return
    lead, tail = {
        "moneris": ("<request><store_id>store%d</store_id><purchase><order_id>ord-%d</order_id><pan>" % (r.randint(1, 9), r.randint(1000, 9999)),
                    "</pan><expdate>%02d%02d</expdate></purchase></request>\n" % (r.randint(27, 31), r.randint(1, 12))),
        "converge": ("ssl_transaction_type=ccsale&ssl_amount=%d.%02d&ssl_card_number=" % (r.randint(1, 999), r.randint(0, 99)), "&ssl_exp_date=%02d%02d\n" % (r.randint(1, 12), r.randint(27, 31))),
        "nmi": ("type=sale&amount=%d.00&ccnumber=" % r.randint(1, 999), "&ccexp=%02d%02d&cvv=***\n" % (r.randint(1, 12), r.randint(27, 31))),
        "payeezy": ("{\"transaction_type\": \"purchase\", \"method\": \"credit_card\", \"credit_card\": {\"type\": \"visa\", \"cardholder_name\": \"Renata Vieira\", \"card_number\": \"",
                    "\", \"exp_date\": \"%02d%02d\"}}\n" % (r.randint(1, 12), r.randint(27, 31))),
        "payfort": ("service_command=TOKENIZATION&merchant_reference=%s&card_number=" % _s(r, UP + D, 10), "&expiry_date=%02d%02d\n" % (r.randint(27, 31), r.randint(1, 12))),
        "flutterwave": ("{\"card_number\": \"", "\", \"cvv\": \"***\", \"expiry_month\": \"%02d\", \"expiry_year\": \"%02d\", \"currency\": \"NGN\"}\n" % (r.randint(1, 12), r.randint(27, 31))),
        "razorpay": ("curl -X POST https://api.example.in/v1/payments/create/json -d 'card[number]=", "' -d 'card[expiry_month]=12'\n"),
    }[form]
    _put(doc, lead, c, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = _group(i)
    form = r.choice(["payto", "ubl", "facturx", "stripe_form", "wise", "gocardless", "nnbsp", "rtl_marks", "obie", "berlin_group",
                     "carrier", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    if form == "carrier":
        _carry(r, doc, "IBAN", r.choice([i, spaced]), "iban", "carrier")
        return
    if form == "rtl_marks":
        # An Arabic page keeps the IBAN left-to-right between directional marks.
        i = _iban(r, {"JO", "KW", "QA", "BH", "LB", "PS", "IQ", "EG", "LY", "MR"})
        _put(doc, r.choice(["رقم الآيبان: \u200f", "الحساب: \u202a"]), r.choice([i, _group(i)]), "iban", form, r.choice(["\u200f\n", "\u202c\n"]))
        return
    lead, v, tail = {
        "payto": ("payto://iban/", i, "?receiver-name=Station%%207&amount=EUR:%d.%02d\n" % (r.randint(1, 999), r.randint(0, 99))),
        "ubl": ("<cac:PaymentMeans>\n  <cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>\n  <cac:PayeeFinancialAccount>\n    <cbc:ID>", i, "</cbc:ID>\n  </cac:PayeeFinancialAccount>\n"),
        "facturx": ("<ram:PayeePartyCreditorFinancialAccount>\n  <ram:IBANID>", i, "</ram:IBANID>\n</ram:PayeePartyCreditorFinancialAccount>\n"),
        "stripe_form": ("curl https://api.example.com/v1/payment_methods -d type=sepa_debit -d \"sepa_debit[iban]=", i, "\"\n"),
        "wise": ("{\"currency\": \"EUR\", \"type\": \"iban\", \"details\": {\"legalType\": \"PRIVATE\", \"IBAN\": \"", i, "\"}}\n"),
        "gocardless": ("{\"customer_bank_accounts\": {\"account_holder_name\": \"R Vieira\", \"iban\": \"", i, "\"}}\n"),
        "nnbsp": ("IBAN\u00a0: ", _group(i, "\u202f"), "\n"),
        "obie": ("\"CreditorAccount\": {\"SchemeName\": \"UK.OBIE.IBAN\", \"Identification\": \"", i, "\", \"Name\": \"Station 7\"},\n"),
        "berlin_group": ("POST /v1/payments/sepa-credit-transfers\n{\"debtorAccount\": {\"iban\": \"", i, "\"}, \"instructedAmount\": {\"currency\": \"EUR\", \"amount\": \"%d.%02d\"}}\n" % (
            r.randint(1, 999), r.randint(0, 99))),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    port, port2 = r.randint(1024, 65000), r.choice([22, 80, 443, 502, 4840, 5060, 8883])
    form = r.choice(["tcpdump", "pflog", "modsecurity", "snort", "charon", "masscan", "nsg_flow", "sip_via", "win_arp",
                     "test_netconnection", "opcua", "modpoll", "octoprint", "moonraker", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    if form == "carrier":
        _carry(r, doc, "client ip", ip, "ipv4", "carrier")
        return
    hh = lambda: "%02d:%02d:%02d" % (r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))
    parts = {
        # tcpdump writes the port after a dot: the address is the first four numbers.
        "tcpdump": ["%s.%06d IP " % (hh(), r.randint(0, 999999)), (ip, "ipv4"), ".%d > " % port, (ip2, "ipv4"),
                    ".%d: Flags [S], seq %d, win 64240, length 0\n" % (port2, r.randint(10 ** 8, 4 * 10 ** 9))],
        "pflog": ["%s.%06d rule 12/0(match): block in on em0: " % (hh(), r.randint(0, 999999)), (ip, "ipv4"), ".%d > " % port, (ip2, "ipv4"),
                  ".%d: tcp 0\n" % port2],
        "modsecurity": ["--%s-A--\n[07/Dec/2026:%s +0000] %s " % (_hx(r, 8), hh(), _s(r, AN, 27)), (ip, "ipv4"), " %d " % port, (ip2, "ipv4"),
                        " %d\n--%s-B--\nGET /admin/ HTTP/1.1\n" % (port2, _hx(r, 8))],
        "snort": ["12/07-%s.%06d  [**] [1:2001219:20] ET SCAN Potential SSH Scan [**] [Priority: 2] {TCP} " % (hh(), r.randint(0, 999999)),
                  (ip, "ipv4"), ":%d -> " % port, (ip2, "ipv4"), ":22\n"],
        "charon": ["Dec  7 %s gw charon: 09[IKE] " % hh(), (ip, "ipv4"), " is initiating an IKE_SA\n"],
        "masscan": ["Discovered open port %d/tcp on " % port2, (ip, "ipv4"), "\n"],
        "nsg_flow": ["{\"rule\": \"DefaultRule_DenyAllInBound\", \"flows\": [{\"mac\": \"%s\", \"flowTuples\": [\"%d," % (_hx(r, 12, upper=True), r.randint(1_760_000_000, 1_790_000_000)),
                     (ip, "ipv4"), ",", (ip2, "ipv4"), ",%d,%d,T,I,D\"]}]}\n" % (port, port2)],
        "sip_via": ["Via: SIP/2.0/UDP ", (ip, "ipv4"), ":5060;branch=z9hG4bK%s;rport\n" % _s(r, LOWD, 10)],
        "win_arp": ["Interface: 10.%d.%d.%d --- 0x%x\n  Internet Address      Physical Address      Type\n  " % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254), r.randint(2, 30)),
                    (ip, "ipv4"), "          %s     dynamic\n" % "-".join(_hx(r, 2) for _ in range(6))],
        "test_netconnection": ["PS C:\\> Test-NetConnection -ComputerName press07 -Port %d\n\nComputerName     : press07\nRemoteAddress    : " % port2,
                               (ip, "ipv4"), "\nTcpTestSucceeded : True\n"],
        "opcua": ["endpointUrl = \"opc.tcp://", (ip, "ipv4"), ":4840/freeopcua/server/\"\n"],
        "modpoll": ["$ modpoll -m tcp -a 1 -r 40001 -c 8 ", (ip, "ipv4"), "\nProtocol configuration: MODBUS/TCP\n"],
        "octoprint": ["2026-12-07 %s,%03d - octoprint.server.util.flask - INFO - Passive login for user from " % (hh(), r.randint(0, 999)),
                      (ip, "ipv4"), "\n"],
        "moonraker": ["[authorization]\ntrusted_clients:\n    ", (ip, "ipv4"), "\n    ", (ip2, "ipv4"), "\n"],
    }[form]
    if form == "win_arp":
        # The interface address is one too.
        iface = parts[0].split(" ---")[0][len("Interface: "):]
        parts = ["Interface: ", (iface, "ipv4"), parts[0][len("Interface: ") + len(iface):]] + parts[1:]
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    g = lambda: "%x" % r.randint(1, 0xffff)
    form = r.choice(["tcpdump", "charon", "sip_via", "ipconfig", "get_netipaddress", "radvd", "ip6_route", "opcua", "upper_full",
                     "sixtofour", "teredo", "isatap", "zone", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    if form == "carrier":
        _carry(r, doc, "client ip", ip, "ipv6", "carrier")
        return
    v4 = _v4(r)
    a, b, c, d = (int(x) for x in v4.split("."))
    parts = {
        "tcpdump": ["04:%02d:%02d.%06d IP6 " % (r.randint(0, 59), r.randint(0, 59), r.randint(0, 999999)), (ip, "ipv6"), ".%d > " % r.randint(1024, 65000),
                    (ip2, "ipv6"), ".443: Flags [P.], length %d\n" % r.randint(1, 1400)],
        "charon": ["Dec  7 04:%02d:%02d gw charon: 11[IKE] " % (r.randint(0, 59), r.randint(0, 59)), (ip, "ipv6"), " is initiating an IKE_SA\n"],
        "sip_via": ["Via: SIP/2.0/TLS [", (ip, "ipv6"), "]:5061;branch=z9hG4bK%s\n" % _s(r, LOWD, 10)],
        "ipconfig": ["Ethernet adapter Ethernet:\n   Temporary IPv6 Address. . . . . . : ", (ip, "ipv6"),
                     "\n   Link-local IPv6 Address . . . . . : ", ("fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6"), "%%%d\n" % r.randint(2, 30)],
        "get_netipaddress": ["IPAddress         : ", (ip, "ipv6"), "\nInterfaceAlias    : Wi-Fi\nAddressFamily     : IPv6\nPrefixLength      : 128\n"],
        "radvd": ["interface eth0 {\n    AdvSendAdvert on;\n    RDNSS ", (ip, "ipv6"), " { };\n};\n"],
        "ip6_route": ["$ ip -6 route\ndefault via ", ("fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6"), " dev wlan0 proto ra metric 600\n",
                      (ip, "ipv6"), " dev wlan0 proto kernel metric 256\n"],
        "opcua": ["endpointUrl = \"opc.tcp://[", (ip, "ipv6"), "]:4840\"\n"],
        "upper_full": ["Source Address: ", (":".join("%04X" % r.randint(0, 0xffff) for _ in range(8)), "ipv6"), "\n"],
        "sixtofour": ["tunnel 6to4 local ", (v4, "ipv4"), " -> ", ("2002:%02x%02x:%02x%02x::%s" % (a, b, c, d, g()), "ipv6"), "\n"],
        "teredo": ["Teredo address: ", ("2001:0:%s:%s:8000:%s:%s:%s" % (g(), g(), g(), g(), g()), "ipv6"), "\n"],
        "isatap": ["Tunnel adapter isatap.corp:\n   Link-local IPv6 Address . . . . . : ", ("fe80::5efe:%s" % v4, "ipv6"), "%%%d\n" % r.randint(2, 30)],
        "zone": ["ping -6 ", ("fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6"), "%%%s\n" % r.choice(["eth0", "en0", "wlan0", "12"])],
    }[form]
    _seq(doc, form, parts)


def _ec_der(r):
    """A SEC1 P-256 private key, DER: version, the 32-byte key, the curve, the public point."""
    return bytes.fromhex("30770201010420") + _rb(r, 32) + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + _rb(r, 64)


def _ed25519_der(r):
    """A PKCS#8 Ed25519 private key, DER."""
    return bytes.fromhex("302e020100300506032b657004220420") + _rb(r, 32)


def _rsa1_der(r):
    """A PKCS#1 RSA-2048 private key, DER (the structure's head, then the key's bytes)."""
    return bytes.fromhex("308204a40201000282010100") + _rb(r, 1192 - 12)


def _rsa_der(r):
    """A PKCS#8 RSA-2048 private key, DER (the structure's head, then the key's bytes)."""
    return bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a302010002820101") + _rb(r, 1217 - 37)


def i_private_key(r, doc, m):
    form = r.choice(["der_hex", "der_b64_env", "go_concat", "crlf_json", "wrap76", "mime_attachment", "pwsh_herestring",
                     "typst_raw", "csv_cell", "sql_string", "ec_params", "carrier_ish", "prose"])
    if form == "der_hex":
        which = r.choice(["ec", "ed25519"])
        der = _ec_der(r) if which == "ec" else _ed25519_der(r)
        _put(doc, r.choice(["const TEST_KEY_DER: &str = \"", "PRIVATE_KEY_HEX = \"", "    privKeyDER, _ := hex.DecodeString(\""]),
             der.hex(), "private_key", "der_hex_" + which, "\"\n")
        return
    if form == "der_b64_env":
        which = r.choice(["ec", "ed25519", "rsa"])
        der = {"ec": _ec_der, "ed25519": _ed25519_der, "rsa": _rsa_der}[which](r)
        _put(doc, r.choice(["SIGNING_KEY=", "export JWT_PRIVATE_KEY=", "  \"privateKey\": \""]), base64.b64encode(der).decode(), "private_key",
             "der_b64_" + which, r.choice(["\n", "\n", "\",\n"]))
        return
    if form == "ec_params":
        # `openssl ecparam -genkey` writes the curve's parameters before the key: they are public.
        doc.t("$ openssl ecparam -name prime256v1 -genkey\n")
        doc.look("-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----", "ec_parameters")
        doc.t("\n")
        doc.item("-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----" % "\n".join(
            (lambda b: [b[k:k + 64] for k in range(0, len(b), 64)])(base64.b64encode(_ec_der(r)).decode())), "private_key", "t_ec_params")
        doc.t("\n")
        return
    pem, label = _pem(r, width=76 if form == "wrap76" else 64)
    lines = pem.split("\n")
    if form == "go_concat":
        # Go and Java tests keep a PEM as string literals joined line by line.
        v = ("\\n\" +\n\t\"").join(lines)
        lead, tail = "const testKey = \"", "\\n\"\n"
    elif form == "crlf_json":
        v = "\\r\\n".join(lines)
        lead, tail = "{\"certificate\": {\"keyPem\": \"", "\\r\\n\"}}\n"
    elif form == "wrap76":
        v = pem
        lead, tail = "Key as the Java MIME encoder wrapped it:\n", "\n"
    elif form == "mime_attachment":
        # The PEM file as a base64 attachment: the attachment is the key.
        raw = base64.b64encode((pem + "\n").encode()).decode()
        v = "\n".join(raw[k:k + 76] for k in range(0, len(raw), 76))
        lead = ("Content-Type: application/x-pem-file; name=\"press07.key\"\nContent-Disposition: attachment; filename=\"press07.key\"\n"
                "Content-Transfer-Encoding: base64\n\n")
        tail = "\n--%s--\n" % _hx(r, 24)
    elif form == "pwsh_herestring":
        v = pem
        lead, tail = "$key = @'\n", "\n'@\nSet-Content -Path C:\\ops\\press07.key -Value $key\n"
    elif form == "typst_raw":
        v = pem
        lead, tail = "#raw(block: true, lang: \"pem\", \"", "\")\n"
    elif form == "csv_cell":
        v = pem
        lead, tail = "host,role,key\npress07,printer,\"", "\"\n"
    elif form == "sql_string":
        v = pem
        lead, tail = "INSERT INTO device_keys (device, key_pem) VALUES ('press07', '", "');\n"
    elif form == "carrier_ish":
        v = "\\n".join(lines)
        lead, tail = "    - name: tls-key\n      value: \"", "\"\n"
        form = "tekton_param"
    else:
        lang = r.choice(sorted(PROSE))
        p_lead, p_tail = PROSE[lang].split("{}")
        lead, v, tail = p_lead + "key:\n", pem, "\n" + p_tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, label), tail)


def _bech32_like(r, hrp, n):
    return hrp + "1" + _s(r, BECH32, n)


def _provider(r):
    """A provider token no family wrote, in its own place: (name, parts) where
    a part is text, or (value, class), or (value, "look:kind")."""
    name = r.choice(["doppler_sa", "vault_batch", "mapbox", "airtable", "dropbox_short", "gitlab_feed", "gitlab_scim", "square",
                     "duffel", "docker_oat", "volcengine", "meta_page", "instagram", "shopify_private", "nuget", "grafana_legacy",
                     "hubspot", "razorpay", "xendit", "midtrans", "mercadopago", "paypal", "recaptcha", "flutterwave", "lnd_macaroon",
                     "nostr", "bip32", "solana"])
    if name == "mapbox":
        pub = "pk." + _b64u(json.dumps({"u": "station7", "a": _s(r, LOWD, 25)}, separators=(",", ":"))) + "." + _s(r, B64URL, 22)
        sec = "sk." + _b64u(json.dumps({"u": "station7", "a": _s(r, LOWD, 25)}, separators=(",", ":"))) + "." + _s(r, B64URL, 22)
        return name, ["MAPBOX_PUBLIC_TOKEN=", (pub, "look:mapbox_public_token"), "\nMAPBOX_DOWNLOADS_TOKEN=", (sec, "api_key"), "\n"]
    if name == "razorpay":
        return name, ["RAZORPAY_KEY_ID=", ("rzp_live_" + _s(r, AN, 14), "look:razorpay_key_id"), "\nRAZORPAY_KEY_SECRET=", (_s(r, AN, 24), "api_key"), "\n"]
    if name == "xendit":
        return name, ["XENDIT_PUBLIC_KEY=", ("xnd_public_development_" + _s(r, AN, 40), "look:xendit_public_key"),
                      "\nXENDIT_SECRET_KEY=", ("xnd_development_" + _s(r, AN, 50), "api_key"), "\n"]
    if name == "midtrans":
        return name, ["midtrans:\n  client_key: ", ("Mid-client-" + _s(r, AN + "_-", 16), "look:midtrans_client_key"),
                      "\n  server_key: ", ("Mid-server-" + _s(r, AN + "_-", 24), "api_key"), "\n"]
    if name == "recaptcha":
        # A site key and its secret share their shape; only the secret is one.
        return name, ["RECAPTCHA_SITE_KEY=", ("6L" + _s(r, AN + "_-", 38), "look:recaptcha_site_key"), "\nRECAPTCHA_SECRET_KEY=",
                      ("6L" + _s(r, AN + "_-", 38), "api_key"), "\n"]
    if name == "flutterwave":
        return name, ["FLW_PUBLIC_KEY=", ("FLWPUBK-" + _hx(r, 32) + "-X", "look:flutterwave_public_key"), "\nFLW_SECRET_KEY=",
                      ("FLWSECK-" + _hx(r, 32) + "-X", "api_key"), "\n"]
    if name == "nostr":
        return name, ["{\n  \"npub\": \"", (_bech32_like(r, "npub", 58), "look:nostr_npub"), "\",\n  \"nsec\": \"", (_bech32_like(r, "nsec", 58), "api_key"), "\"\n}\n"]
    if name == "bip32":
        x = lambda p: p + _s(r, B58, 95)
        return name, ["$ bx hd-new %s\n" % _hx(r, 32), (x("xprv9s21ZrQH143K"), "api_key"), "\n$ bx hd-to-public\n",
                      (x("xpub661MyMwAqRbc"), "look:bip32_xpub"), "\n"]
    if name == "volcengine":
        return name, ["[default]\nvolcengine_access_key_id = ", ("AKLT" + _s(r, AN, 42), "api_key"),
                      "\nvolcengine_secret_access_key = ", (base64.b64encode(_s(r, AN, 48).encode()).decode(), "api_key"), "\n"]
    if name == "solana":
        return name, ["$ cat ~/.config/solana/id.json\n", ("[" + ",".join(str(r.randint(0, 255)) for _ in range(64)) + "]", "api_key"), "\n"]
    lead, tok, tail = {
        "doppler_sa": ("DOPPLER_TOKEN=", "dp.sa." + _s(r, AN, 43), "\n"),
        "vault_batch": ("VAULT_TOKEN=", "hvb.AAAAAQ" + _s(r, B64URL, 130), "\n"),
        "airtable": ("AIRTABLE_TOKEN=", "pat" + _s(r, AN, 14) + "." + _hx(r, 64), "\n"),
        "dropbox_short": ("curl -X POST https://api.example.com/2/files/list_folder --header \"Authorization: Bearer ", "sl.B" + _s(r, AN + "-_", 134), "\"\n"),
        "gitlab_feed": ("https://gitlab.example.coop/dashboard/projects.atom?feed_token=", "glft-" + _s(r, AN + "-_", 20), "\n"),
        "gitlab_scim": ("SCIM API token: ", "glsoat-" + _s(r, AN + "-_", 20), "\n"),
        "square": (r.choice(["SQUARE_ACCESS_TOKEN=", "SQUARE_APPLICATION_SECRET="]), None, "\n"),
        "duffel": ("DUFFEL_ACCESS_TOKEN=", "duffel_" + r.choice(["live", "test"]) + "_" + _s(r, AN + "-_", 43), "\n"),
        "docker_oat": ("echo \"$TOKEN\" | docker login -u station7 --password-stdin  # TOKEN=", "dckr_oat_" + _s(r, AN + "-_", 32), "\n"),
        "meta_page": ("curl -G https://graph.example.com/v21.0/me/accounts -d access_token=", "EAAG" + _s(r, AN, 180), "\n"),
        "instagram": ("INSTAGRAM_ACCESS_TOKEN=", "IGQV" + _s(r, AN + "-_", 196), "\n"),
        "shopify_private": ("SHOPIFY_ADMIN_TOKEN=", "shppa_" + _hx(r, 32), "\n"),
        "nuget": ("dotnet nuget push edl-tools.0.4.1.nupkg --api-key ", "oy2" + _s(r, LOWD, 43), " --source https://api.nuget.org/v3/index.json\n"),
        "grafana_legacy": ("GRAFANA_API_KEY=", base64.b64encode(json.dumps({"k": _s(r, AN, 32), "n": "edl-sync", "id": r.randint(1, 99)},
                                                                            separators=(",", ":")).encode()).decode(), "\n"),
        "hubspot": ("HUBSPOT_ACCESS_TOKEN=", "pat-" + r.choice(["na1", "eu1"]) + "-" + _uuid(r), "\n"),
        "mercadopago": ("MP_ACCESS_TOKEN=", "APP_USR-%s-%s-%s-%s" % (_d(r, 16), _d(r, 6), _hx(r, 32), _d(r, 9)), "\n"),
        "paypal": ("curl -H \"Authorization: Bearer ", "A21AA" + _s(r, AN + "-_", 92), "\" https://api-m.example.com/v2/checkout/orders\n"),
        "lnd_macaroon": ("MACAROON_HEX=", "0201036c6e6402f801030a10" + _hx(r, 32) + "1201301a160a0761646472657373120472656164120577726974651a13" + _hx(r, 160), "\n"),
    }[name]
    if name == "square":
        tok = "EAAA" + _s(r, AN + "-_", 60) if "ACCESS" in lead else "sq0csp-" + _s(r, AN + "-_", 43)
    return name, [lead, (tok, "api_key"), tail]


def i_api_key(r, doc, m):
    pw = _pw(r)
    form = r.choice(["stata_odbc", "tekton_secret", "spinnaker_artifact", "octopus_sensitive", "woodpecker_secret", "azure_secret_var",
                     "packer_ssh", "crossplane", "helmfile_secret", "tfvars", "vector_sink", "gatling_basic", "locust_login",
                     "insomnia_env", "opcua_user", "st61131", "scorm_lrs", "moonraker_api", "octoprint_api",
                     "provider", "provider", "provider", "provider", "provider", "provider", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    if form == "provider":
        while True:
            name, parts = _provider(r)
            if not any(isinstance(p, tuple) and p[1].startswith("look:") and _cardish(p[0]) for p in parts):
                break
        for p in parts:
            if isinstance(p, tuple) and p[1].startswith("look:"):
                doc.look(p[0], p[1][5:])
            elif isinstance(p, tuple):
                doc.item(p[0], p[1], "t_provider_" + name)
            else:
                doc.t(p)
        return
    lead, v, tail = {
        "stata_odbc": ("odbc load, exec(\"SELECT * FROM qso\") conn(\"DRIVER={PostgreSQL};SERVER=db.example.coop;UID=stata;PWD=", pw, ";\") clear\n"),
        "tekton_secret": ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry-auth\n  annotations:\n    tekton.dev/docker-0: https://registry.example.coop\ntype: kubernetes.io/basic-auth\nstringData:\n  username: tekton\n  password: ",
                          pw, "\n"),
        "spinnaker_artifact": ("artifacts:\n  http:\n    enabled: true\n    accounts:\n    - name: edl-store\n      username: spinnaker\n      password: ", pw, "\n"),
        "octopus_sensitive": ("{\"Name\": \"Db.Password\", \"Type\": \"Sensitive\", \"IsSensitive\": true, \"Value\": \"", pw, "\"}\n"),
        "woodpecker_secret": ("$ woodpecker-cli repo secret add --repository station/edl --name registry_password --value ", pw, "\n"),
        "azure_secret_var": ("##vso[task.setvariable variable=dbPassword;issecret=true]", pw, "\n"),
        "packer_ssh": ("source \"qemu\" \"press\" {\n  ssh_username = \"packer\"\n  ssh_password = \"", pw, "\"\n}\n"),
        "crossplane": ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: mysql-creds\n  namespace: crossplane-system\nstringData:\n  username: root\n  password: ",
                       pw, "\n  endpoint: mysql.example.coop\n  port: \"3306\"\n"),
        "helmfile_secret": ("environments:\n  prod:\n    values:\n      - db:\n          password: ", pw, "\n"),
        "tfvars": (r.choice(["db_password = \"", "admin_api_token = \"", "opcua_password = \""]), pw, "\"\n"),
        "vector_sink": ("[sinks.es]\ntype = \"elasticsearch\"\nendpoints = [\"https://es.example.coop:9200\"]\nauth.strategy = \"basic\"\nauth.user = \"vector\"\nauth.password = \"", pw, "\"\n"),
        "gatling_basic": ("  val httpProtocol = http.baseUrl(\"https://edl.example.film\").basicAuth(\"loadtest\", \"", pw, "\")\n"),
        "locust_login": ("        self.client.post(\"/login\", json={\"user\": \"load01\", \"password\": \"", pw, "\"})\n"),
        "insomnia_env": ("{\"_type\": \"environment\", \"name\": \"Prod\", \"data\": {\"base_url\": \"https://api.example.aero\", \"api_token\": \"", _tok(r, 40), "\"}}\n"),
        "opcua_user": ("client.set_user(\"operator\")\nclient.set_password(\"", pw, "\")\n"),
        "st61131": ("VAR\n    sMqttPassword : STRING(32) := '", pw, "';\nEND_VAR\n"),
        "scorm_lrs": ("var lrsConfig = { endpoint: \"https://lrs.example.edu/xapi/\", auth: \"Basic ",
                      base64.b64encode(("lms:" + pw).encode()).decode(), "\" };\n"),
        "moonraker_api": ("curl -H \"X-Api-Key: ", _hx(r, 32), "\" http://press07.local:7125/printer/info\n"),
        "octoprint_api": ("octoprint:\n  host: press07.local\n  api_key: ", _s(r, UP + D, 32), "\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["kafka_oauthbearer", "k8s_ws_protocol", "gha_oidc", "implicit_fragment", "jwe", "unsecured", "qp_magic_link",
                     "cookie_b64_json", "libsql", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, _jwt(r), "jwt", "prose", "token")
        return
    if form == "carrier":
        _carry(r, doc, "session token", _jwt(r), "jwt", "carrier")
        return
    if form == "k8s_ws_protocol":
        # Kubernetes takes a bearer token in the WebSocket subprotocol, base64url-encoded once more.
        _put(doc, "Sec-WebSocket-Protocol: v4.channel.k8s.io, base64url.bearer.authorization.k8s.io.", _b64u(_jwt(r, alg="RS256")), "jwt", form, "\n")
        return
    if form == "cookie_b64_json":
        inner = base64.b64encode(json.dumps({"token": _jwt(r), "remember": True}, separators=(",", ":")).encode()).decode()
        _put(doc, "Cookie: lms_session=", inner, "jwt", form, "; Path=/\n")
        return
    if form == "jwe":
        head = _b64u(json.dumps({"alg": r.choice(["RSA-OAEP-256", "ECDH-ES+A256KW", "dir"]), "enc": "A256GCM", "cty": "JWT"}, separators=(",", ":")))
        v = "%s.%s.%s.%s.%s" % (head, _b64r(r, 256, url=True, pad=False), _b64r(r, 12, url=True, pad=False), _b64r(r, r.randint(200, 600), url=True, pad=False),
                                _b64r(r, 16, url=True, pad=False))
        _put(doc, r.choice(["id_token=", "\"encrypted_token\": \"", "X-Userinfo: "]), v, "jwt", form, "\n")
        return
    if form == "unsecured":
        _put(doc, "Authorization: Bearer ", _jwt(r, alg="none", sig=False), "jwt", form, "\n")
        return
    if form == "qp_magic_link":
        # Quoted-printable breaks long lines with `=` at 76 columns, inside the token too.
        pre = "https://lms.example.edu/magic?token=3D"
        s = pre + _jwt(r, alg="HS512")
        text = "=\n".join(s[k:k + 75] for k in range(0, len(s), 75))
        doc.t("Content-Transfer-Encoding: quoted-printable\n\nSign in:\n" + pre)
        doc.item(text[len(pre):], "jwt", "t_qp_magic_link")
        doc.t("\n")
        return
    lead, tail = {
        "kafka_oauthbearer": ("DEBUG [SaslClientAuthenticator] Sending SASL message: n,,\\x01auth=Bearer ", "\\x01\\x01\n"),
        "gha_oidc": ("ACTIONS_ID_TOKEN_REQUEST_TOKEN=", "\nACTIONS_ID_TOKEN_REQUEST_URL=https://pipelines.actions.example.com/%s/idtoken\n" % _s(r, AN, 20)),
        "implicit_fragment": ("https://edl.example.film/callback#access_token=", "&token_type=Bearer&expires_in=3600&state=%s\n" % _s(r, B64URL, 16)),
        "libsql": ("TURSO_URL=libsql://station-%s.turso.io?authToken=" % _s(r, LOWD, 6), "\n"),
    }[form]
    _put(doc, lead, _jwt(r, alg="EdDSA" if form == "libsql" else None), "jwt", form, tail)


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["gel", "edgedb", "taos", "ipp", "gopher", "s3a", "opensearch", "tarantool", "exasol", "databend", "dameng",
                     "afp", "mumble", "timescale", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "gel://admin:", pw, "url_credentials", "prose_" + lang, "@gel.example.coop:5656/main " + tail + "\n")
        return
    if form == "s3a":
        # The user is an access key id, the password its secret (slash encoded).
        secret = _s(r, AN, 20) + "%2F" + _s(r, AN, 17)
        _seq(doc, form, ["spark.read.parquet(\"s3a://", ("AKIA" + _s(r, UP + "234567", 16), "api_key"), ":", (secret, "url_credentials"),
                         "@qso-archive/2026/\")\n"])
        return
    lead, tail = {
        "gel": ("GEL_DSN=gel://admin:", "@gel.example.coop:5656/main\n"),
        "edgedb": ("EDGEDB_DSN=edgedb://edgedb:", "@edgedb.example.coop:5656/edgedb\n"),
        "taos": ("conn = taosws.connect(\"taosws://root:", "@tdengine.example.energy:6041\")\n"),
        "ipp": ("lpadmin -p press07 -v ipp://printops:", "@press07.example.travel:631/ipp/print -m everywhere\n"),
        "gopher": ("curl gopher://gopher:", "@gopher.example.museum:70/1/phlog\n"),
        "opensearch": ("OPENSEARCH_URL=https://admin:", "@opensearch.example.energy:9200\n"),
        "tarantool": ("conn = tarantool.connect(\"tarantool://api:", "@tt.example.coop:3301\")\n"),
        "exasol": ("engine = create_engine(\"exa+websocket://sys:", "@exasol.example.coop:8563/QSO?FINGERPRINT=nocertcheck\")\n"),
        "databend": ("BENDSQL_DSN=databend://root:", "@databend.example.coop:8000/default?sslmode=disable\n"),
        "dameng": ("engine = create_engine(\"dm+dmPython://SYSDBA:", "@dm.example.coop:5236\")\n"),
        "afp": ("open 'afp://editor:", "@nas.example.film/Projects'\n"),
        "mumble": ("<a href=\"mumble://station7:", "@voice.example.coop:64738/Net%20Control?version=1.2.0\">Join net</a>\n"),
        "timescale": ("DATABASE_URL=postgres://tsdbadmin:", "@%s.%s.tsdb.cloud.timescale.com:%d/tsdb?sslmode=require\n" % (
            _s(r, LOWD, 10), _s(r, LOWD, 10), r.randint(30000, 39999))),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _rf_reference(r):
    """An ISO 11649 creditor reference: `RF`, two check digits, up to 21 characters."""
    ref = _s(r, UP + D, r.randint(8, 17))
    check = 98 - mod97(ref + "RF00")
    return "RF%02d%s" % (check, ref)


def _sepa_ci(r):
    """A SEPA creditor identifier: country, check over the national id, business code, national id."""
    country = r.choice(["DE", "AT", "NL", "ES", "IT", "FR"])
    nat = _s(r, D + UP, {"DE": 11, "AT": 11, "NL": 14, "ES": 9, "IT": 16, "FR": 6}[country])
    return "%s%02dZZZ%s" % (country, 98 - mod97(nat + country + "00"), nat)


def _lei(r):
    base = _d(r, 4) + "00" + _s(r, UP + D, 12)
    return "%s%02d" % (base, 98 - mod97(base + "00"))


def _dicom_uid(r):
    root = r.choice(["1.2.840.113619.2", "1.2.826.0.1.3680043.8.498", "1.3.12.2.1107.5.2", "1.2.840.10008.5.1.4.1.1"])
    return root + "." + ".".join(str(r.randint(1, 255 if k < 3 else 99999)) for k in range(r.randint(3, 6)))


def _iso6346(r):
    owner = r.choice(["MSKU", "TGHU", "CMAU", "HLXU", "MSCU"]) + _d(r, 6)
    vals = {}
    v = 10
    for ch in UP:
        if v % 11 == 0:
            v += 1
        vals[ch] = v
        v += 1
    total = sum((int(c) if c.isdigit() else vals[c]) * 2 ** k for k, c in enumerate(owner))
    return "%s %s %d" % (owner[:4], owner[4:], total % 11 % 10)


def _vin(r):
    chars = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    return r.choice(["1HG", "WVW", "JHM", "5YJ", "VF1", "ZFA"]) + _s(r, chars, 14)


def i_look(r, doc, m):
    q = r.randint
    hx = lambda n: _hx(r, n)
    kind = r.choice([
        # Public halves and parameters.
        "pgp_public_block", "csr", "ec_parameters", "mapbox_public", "recaptcha_site", "flutterwave_public", "npub", "xpub",
        # Dotted and colon ids.
        "dicom_uid", "dicom_uid", "wwn", "smpte_edl", "cpp_hex_path", "rust_hex_path", "windows_sid",
        # Bank and trade references.
        "rf_reference", "sepa_ci", "lei", "ifsc", "bsb", "aba", "ein", "duns", "hs_code", "ndc", "imeisv", "gtin", "sscc",
        # Radio, maritime, industrial.
        "mmsi", "iso6346", "maidenhead", "frequency", "gcode", "zpl", "modbus", "opcua_node", "can_id", "vin",
        # Hashes, ciphertext, encoded JSON.
        "lightning_invoice", "ipfs_cid", "eth_tx", "vault_transit", "fernet", "sourcemap", "cursor", "next_token",
        # Scholarly and media ids.
        "pmcid", "issn", "isrc", "ledes_task",
        # Sortable ids, public addresses, fingerprints, routing.
        "ulid", "ksuid", "onion_v3", "stripe_acct", "ssh_fingerprint", "aws_arn", "bgp_large_community", "callsign_ssid",
    ])
    if kind in ("pgp_public_block", "csr"):
        label = {"pgp_public_block": "PGP PUBLIC KEY BLOCK", "csr": "CERTIFICATE REQUEST"}[kind]
        body = base64.b64encode(_rb(r, r.randint(200, 700))).decode()
        v = "-----BEGIN %s-----\n%s%s\n-----END %s-----" % (label, "\n" if kind == "pgp_public_block" else "",
                                                          "\n".join(body[k:k + 64] for k in range(0, len(body), 64)), label)
        doc.t("$ gpg --armor --export station7\n" if kind == "pgp_public_block" else "$ openssl req -new -key press07.key\n")
        doc.look(v, kind)
        doc.t("\n")
        return
    lead, make, tail = {
        "ec_parameters": ("$ openssl ecparam -name secp384r1\n", lambda: "-----BEGIN EC PARAMETERS-----\nBgUrgQQAIg==\n-----END EC PARAMETERS-----", "\n"),
        "mapbox_public": ("mapboxgl.accessToken = '", lambda: "pk." + _b64u(json.dumps({"u": "station7", "a": _s(r, LOWD, 25)}, separators=(",", ":"))) + "." + _s(r, B64URL, 22), "';\n"),
        "recaptcha_site": ("<div class=\"g-recaptcha\" data-sitekey=\"", lambda: "6L" + _s(r, AN + "_-", 38), "\"></div>\n"),
        "flutterwave_public": ("FlutterwaveCheckout({ public_key: \"", lambda: "FLWPUBK_TEST-" + hx(32) + "-X", "\", tx_ref: \"qso-%d\" });\n" % q(1, 9999)),
        "npub": ("Follow the station on Nostr: ", lambda: _bech32_like(r, "npub", 58), "\n"),
        "xpub": ("Watch-only wallet imported: ", lambda: "xpub661MyMwAqRbc" + _s(r, B58, 95), "\n"),
        "dicom_uid": (r.choice(["(0008,0018) UI [", "(0020,000d) UI [", "(0002,0010) UI ["]), _dicom_uid_f(r), r.choice(["]  #  54, 1 SOPInstanceUID\n", "]  #  44, 1 StudyInstanceUID\n", "]  #  20, 1 TransferSyntaxUID\n"])),
        "wwn": ("zone name edl_san vsan 10\n  member pwwn ", lambda: ":".join(hx(2) for _ in range(8)), "\n"),
        "smpte_edl": ("%03d  AX       V     C        " % q(1, 300), lambda: "01:%02d:%02d:%02d 01:%02d:%02d:%02d" % (q(0, 59), q(0, 59), q(0, 23), q(0, 59), q(0, 59), q(0, 23)), "\n"),
        "cpp_hex_path": ("    auto sum = ", lambda: r.choice(["fe::add", "bad::face", "dec::add", "ace::cafe", "bead::fade"]) + "(a, b);", "\n"),
        "rust_hex_path": ("use crate::", lambda: r.choice(["fe::{add, sub}", "ec::dbl", "aead::decrypt", "cafe::Beef", "abc::def::Fed"]), ";\n"),
        "windows_sid": ("Security ID:\t\t", lambda: "S-1-5-21-%d-%d-%d-%d" % (q(10 ** 9, 4 * 10 ** 9), q(10 ** 9, 4 * 10 ** 9), q(10 ** 9, 4 * 10 ** 9), q(1000, 9999)), "\n"),
        "rf_reference": ("Creditor reference: ", lambda: _group(_rf_reference(r)), "\n"),
        "sepa_ci": ("Gläubiger-ID: ", lambda: _sepa_ci(r), "\n"),
        "lei": ("<LEI>", lambda: _lei(r), "</LEI>\n"),
        "ifsc": ("IFSC: ", lambda: r.choice(["SBIN", "HDFC", "ICIC", "UTIB", "PUNB"]) + "0" + _s(r, UP + D, 6), "\n"),
        "bsb": ("BSB ", lambda: "%03d-%03d" % (q(10, 999), q(0, 999)), "\n"),
        "aba": ("ABA routing (bank's own, public): ", lambda: _aba(r), "\n"),
        "ein": ("EIN ", lambda: "%02d-%07d" % (q(10, 99), q(0, 9999999)), "\n"),
        "duns": ("D-U-N-S® ", lambda: "%02d-%03d-%04d" % (q(0, 99), q(0, 999), q(0, 9999)), "\n"),
        "hs_code": ("HS code ", lambda: "%04d.%02d.%04d" % (q(1000, 9999), q(0, 99), q(0, 9999)), "\n"),
        "ndc": ("NDC ", lambda: r.choice(["%05d-%04d-%02d", "%04d-%04d-%02d", "%05d-%03d-%02d"]) % (q(1000, 99999), q(0, 9999), q(0, 99)), "\n"),
        "imeisv": ("IMEISV: ", lambda: _d(r, 16), "\n"),
        "gtin": ("(01)", lambda: _d(r, 14), "\n"),
        "sscc": ("SSCC ", lambda: "(00) " + _d(r, 18), "\n"),
        "mmsi": ("MMSI ", lambda: "%d%s" % (q(201, 775), _d(r, 6)), " AIS class A\n"),
        "iso6346": ("Container ", lambda: _iso6346(r), "\n"),
        "maidenhead": ("<GRIDSQUARE:6>", lambda: "%s%s%d%d%s%s" % (r.choice("ABCDEFGHIJKLMNOPQR"), r.choice("ABCDEFGHIJKLMNOPQR"), q(0, 9), q(0, 9), r.choice("abcdefghijklmnopqrstuvwx"), r.choice("abcdefghijklmnopqrstuvwx")), " <EOR>\n"),
        "frequency": ("<FREQ:%d>", lambda: "%d.%03d%03d" % (r.choice([3, 7, 10, 14, 18, 21, 24, 28, 144, 432]), q(0, 999), q(0, 999)), " <MODE:3>FT8\n"),
        "gcode": ("", lambda: "G1 X%d.%03d Y%d.%03d Z0.%d F%d E%d.%05d" % (q(0, 300), q(0, 999), q(0, 300), q(0, 999), q(1, 9), q(600, 6000), q(0, 9), q(0, 99999)), "\n"),
        "zpl": ("", lambda: "^FO%d,%d^BY%d^BCN,%d,Y,N,N" % (q(10, 800), q(10, 1200), q(1, 4), q(50, 200)), "\n"),
        "modbus": ("read holding registers ", lambda: "%d-%d" % (q(40001, 40100), q(40101, 49999)), " (unit 1)\n"),
        "opcua_node": ("NodeId: ", lambda: r.choice(["ns=%d;i=%d" % (q(1, 9), q(1000, 99999)), "ns=%d;s=Press07.Temperature.%d" % (q(1, 9), q(1, 99)),
                                                     "ns=%d;g=%s" % (q(1, 9), _uuid(r))]), "\n"),
        "can_id": ("can0  ", lambda: "%08X   [8]  %s" % (r.choice([0x18FEF100, 0x0CF00400, 0x18FEEE00]) + q(0, 255), " ".join(hx(2).upper() for _ in range(8))), "\n"),
        "vin": ("VIN ", lambda: _vin(r), "\n"),
        "lightning_invoice": ("Pay this invoice: ", lambda: "lnbc%dn1p%s" % (q(1, 9999), _s(r, BECH32, 250)), "\n"),
        "ipfs_cid": (r.choice(["ipfs://", "https://ipfs.example.museum/ipfs/"]), lambda: r.choice(["Qm" + _s(r, B58, 44), "bafybei" + _s(r, B32L, 52)]), "\n"),
        "eth_tx": ("tx ", lambda: "0x" + hx(64), "\n"),
        "vault_transit": ("\"ciphertext\": \"", lambda: "vault:v%d:" % q(1, 3) + _b64r(r, r.choice([28, 44, 60])), "\"\n"),
        "fernet": ("encrypted_note = b'", lambda: "gAAAAA" + _s(r, B64URL, r.choice([94, 114, 138])) + "==", "'\n"),
        "sourcemap": ("//# sourceMappingURL=data:application/json;charset=utf-8;base64,", lambda: base64.b64encode(json.dumps({"version": 3, "file": "edl.js", "sources": ["src/edl.ts"], "mappings": _s(r, AN + ";,", 60)}).encode()).decode(), "\n"),
        "cursor": ("{\"next_cursor\": \"", lambda: _b64u(json.dumps({"offset": q(20, 9000), "sort": "qso_date"}, separators=(",", ":"))), "\"}\n"),
        "next_token": ("\"NextToken\": \"", lambda: base64.b64encode(json.dumps({"nextToken": None, "boto_truncate_amount": q(1, 99), "page": _s(r, AN, 24)}).encode()).decode(), "\"\n"),
        "pmcid": ("", lambda: "PMC%d" % q(1_000_000, 12_999_999), "\n"),
        "issn": ("ISSN ", lambda: _issn(r), "\n"),
        "isrc": ("ISRC ", lambda: "%s-%s-%02d-%05d" % (r.choice(["US", "GB", "DE", "FR", "JP"]), _s(r, UP + D, 3), q(0, 26), q(0, 99999)), "\n"),
        "ulid": ("\"event_id\": \"", lambda: "01" + _s(r, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24), "\",\n"),
        "ksuid": ("trace ", lambda: "2" + _s(r, AN, 26), "\n"),
        "onion_v3": ("http://", lambda: _s(r, B32L, 55) + "d.onion", "/\n"),
        "stripe_acct": ("Stripe-Account: ", lambda: "acct_1" + _s(r, AN, 15), "\n"),
        "ssh_fingerprint": ("ED25519 key fingerprint is ", lambda: "SHA256:" + _b64r(r, 32, pad=False), ".\n"),
        "aws_arn": ("\"RoleArn\": \"", lambda: "arn:aws:iam::%s:role/%s" % (_d(r, 12), r.choice(["edl-sync", "press-ingest", "qso-export"])), "\",\n"),
        "bgp_large_community": ("set large-community ", lambda: "%d:%d:%d" % (q(64512, 65534), q(1, 999), q(1, 9999)), "\n"),
        "callsign_ssid": ("APRS from ", lambda: "%s%d%s-%d" % (_s(r, UP, 2), q(0, 9), _s(r, UP, 3), q(1, 15)), ">APRS,WIDE1-1\n"),
        "ledes_task": ("TASK_CODE|ACTIVITY_CODE[]\n", lambda: "L%d|A%d" % (q(110, 530), q(101, 111)), "[]\n"),
    }[kind]
    if kind == "frequency":
        v = None
        while v is None or _cardish(v):
            v = make()
        doc.t(lead % len(v))
        doc.look(v, kind)
        doc.t(tail)
        return
    doc.t(lead)
    _look(r, doc, make, kind)
    doc.t(tail)


def _dicom_uid_f(r):
    return lambda: _dicom_uid(r)


def _aba(r):
    while True:
        b = "%02d" % r.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 26, 31, 32]) + _d(r, 6)
        w = [3, 7, 1, 3, 7, 1, 3, 7]
        c = (10 - sum(int(x) * k for x, k in zip(b, w)) % 10) % 10
        return b + str(c)


def _issn(r):
    b = _d(r, 7)
    c = (11 - sum(int(x) * k for x, k in zip(b, range(8, 1, -1))) % 11) % 11
    return "%s-%s%s" % (b[:4], b[4:], "X" if c == 10 else str(c))


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt, i_private_key, i_url]

FILLERS = ["\n", "\n\n", "<EOR>\n", "0 TRLR\n", "^XZ\n", "END_VAR\n", "---\n", "M84 ; motors off\n"]


def heldout19_doc(r, doc, m):
    """One text of the twentieth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
