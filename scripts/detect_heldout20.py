"""The twentieth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout20`; not run on its own.

A twenty-first template family, written and committed before any detector
change of the round that tunes on heldout19, from real-world formats and
not from the detectors' code: the session that wrote it did not read the
detectors (`crates/tracegate/src/redact`, `finding*`), their
documentation, the detection sections of benches/README.md or any
split's report or spans; it read `detect_corpus.py`, `detect_values.py`,
`detect_score.py` and `detect_heldout19.py` for the interface and
grepped the nineteen earlier families only for surroundings and value
shapes to keep clear of. Only its summary and per-class table are looked
at until the round's final measurement.

Surroundings that no other family writes, most from air travel,
telecom signalling, astronomy and HPC, scholarly publishing, US mortgage
and payroll files, game servers, machine provisioning and mobile CI:
Amadeus-style PNR elements (`SSR CTCE`, `SSR CTCM`, `FP CC..`, `RM`
remarks), ACARS free text, SMPP PDU dumps, call detail records, Diameter
AVP dumps, `radclient` calls, FITS header cards, NetCDF CDL attributes,
HTCondor submit files and sinful strings, Snakemake rules, CITATION.cff,
codemeta.json, ONIX, JATS, DocBook, Texinfo and LaTeX sources, MISMO
loan files, EFW2 wage records, PeopleSoft and SAP HR extracts, Metro 2
dumps, UB-04 claims, QIF and BAI2 files, FinTS segments, Sparkasse and
N26 CSV exports, STET and PolishAPI payment requests, pain.008 and
camt.054 messages, Source engine `server.cfg` and logs, Ignition and
AutoYaST provisioning, Bitrise, Codemagic, AppVeyor, Cirrus CI,
Semaphore, Zuul, Dagger, Terragrunt and Atlantis, `hcloud`, Hjson, JSON5,
UCL, HuJSON, KCL, SystemVerilog, SPSS syntax, Earthfiles and Podman
Quadlet units, `nfdump`, `ss -tnp`, AT modem commands, MECARD QR
payloads and vCard 2.1; prose in Ingush, Karachay-Balkar, Altai, Khakas,
Dolgan, Chukchi, Koryak, Nanai, Jeju, Banjar, Sasak, Madurese,
Gorontalo, Makassarese, Pangasinan, Maranao, Tausug, Yapese, Chuukese,
Pohnpeian, Kosraean, Tokelauan, Gullah, Louisiana Creole, Michif,
Oneida, Cayuga, Comanche, Kiowa, Arapaho, Shoshone, Haida, Squamish,
Gwich'in, Aleut, Kichwa, Shuar, Dagbani, Mooré, Dioula, Soninke,
Songhay, Tarifit, Kikongo, Kamba, Kalenjin, Sidamo, Saho, Nuer, Dinka
and Comorian (short phrases written by the session, only roughly
idiomatic; in many of these languages only approximations), and US
forms in Arabic, Farsi, French, Greek, Haitian Creole, Italian, Polish,
Portuguese and Russian.

Values in shapes the earlier families did not write as such a set:
cards glued to an airline form-of-payment code (`FPCCVI4...`), in Cielo,
YooKassa and Paytm (`|pan|cvv|expiry|`) payloads, written in Ol Chiki,
Meetei Mayek, Chakma, Javanese, Balinese, Sundanese, Adlam, Osmanya,
Vai digits and in mathematical sans-serif, double-struck and monospace
digits and segmented (LCD) digits, grouped by en spaces, em dashes,
spaced hyphens, or with invisible separators, zero-width joiners or byte order marks
between the groups; phones of Jamaica, Bermuda, Puerto Rico, Barbados,
Montserrat, Anguilla, Grenada, St Vincent, Antigua and the Dominican
Republic, and of India (Ol Chiki, Meetei Mayek, Lepcha), Bangladesh
(Chakma, Hanifi Rohingya), Nepal (Limbu), China (New Tai Lue),
Thailand (Tai Tham), Indonesia (Balinese, Javanese, Sundanese), Vietnam
(Cham), Myanmar (Kayah Li, Shan), Liberia (Vai), Somalia (Osmanya) and
Senegal (Adlam) in their own digits, in SMPP `source_addr`, CDRs,
Diameter `Subscription-Id-Data`, `SSR CTCM`, `AT+CMGS` and `ATD`, MECARD,
vCard 2.1, `tg://resolve`, WTAI links and MISMO; SSNs glued to the `RW`
of an EFW2 record, in MISMO, PeopleSoft, SAP infotype 0002, Metro 2 and
UB-04, with en spaces or horizontal bars, and in US forms in nine more
languages; emails as an airline PNR encodes them (`//` for the at,
`..` for an underscore, `./` for a hyphen), as Texinfo (`@@`), LaTeX
(`\\_`), HTML entities (`&#64;`, `&#x40;`,
`&commat;`) and JSON escapes (`\\u0040`)
write them, in JATS, DocBook, ONIX, CITATION.cff, codemeta (beside
`@type`), NetCDF `creator_email`, FITS cards, HTCondor `notify_user`,
MISMO, Bitrise, Codemagic and AppVeyor, an HTCondor token identity,
and percent-encoded as a Firebolt URL's user; IBANs of Andorra, the Emirates,
Albania, Austria, Bosnia, Belgium, Switzerland, Cyprus, Czechia, Denmark,
Estonia, Finland, Greece, Croatia, Ireland, Iceland, Lithuania,
Luxembourg, Latvia, Malta, Norway, Poland, Portugal, Serbia, Saudi
Arabia, Sweden, Slovenia, Slovakia, Tunisia, Ukraine, Kosovo, Sudan,
Somalia, Yemen, Honduras, Mongolia, Nicaragua, Oman, Russia, Burundi,
Djibouti and the Falklands, grouped by en spaces or hyphens, in lower
case, in FinTS, bank CSV exports, STET, PolishAPI, pain.008, camt.054
and QIF; provider tokens no family wrote (Yandex Cloud API keys and IAM
tokens, LangSmith service keys, Ory, GitLab OAuth application secrets,
incoming-mail, agent and feature-flag tokens, Anthropic OAuth and
session keys, Stripe restricted test keys, JFrog reference tokens and
API keys, Slack refresh and workspace tokens, Riot, Paddle sandbox,
Clojars, Bitbucket Data Center, Login with Amazon tokens and client
secrets, Square OAuth, Shopify custom apps, Linear OAuth, Zoho OAuth,
Webex, hCaptcha, Alpaca, Binance, Kraken, Shodan, VirusTotal,
AbuseIPDB, urlscan, MaxMind, LINE, Hetzner Cloud), Azure Service Bus
SAS signatures, RADIUS shared secrets, QuestDB client passwords and
Source engine RCON passwords; private keys percent-encoded in Ignition
`data:` URLs and form posts, with `+` escaped as .NET's JSON writer
escapes it (`\\u002B`), in Hjson `'''` blocks, JSON5 strings continued
with a backslash, a Podman secret, a Terragrunt heredoc, a Zuul secret,
SystemVerilog and SPSS strings and a PKCS#12 bundle in a Codemagic variable; JWTs in WS-Security
`BinarySecurityToken`, token exchange `subject_token`, JWT bearer grant
`assertion`, MQTT CONNECT passwords, Apple `client_secret`, SMART on
FHIR launch contexts, `X-Pomerium-Jwt-Assertion`, oauth2-proxy headers,
authentik, HTCondor IDTOKENs, a MotherDuck `md:` token, and a Kubernetes service account
token Secret (base64 of the token); IPv4 in Source engine logs,
`radclient`, Diameter, HTCondor sinful strings (`addrs=a.b.c.d-port`),
`nfdump`, `ss -tnp`, SMPP binds and RFC 7239 `Forwarded`; IPv6 of US
mobile and cable carriers, a UK ISP, a Japanese carrier and a Chinese
cloud, SLAAC EUI-64 and unique local addresses, in HTCondor sinful
strings, `radclient`, Diameter, `nfdump`, `ss -tnp`, `ip -6 neigh` and
`Forwarded`; URLs with a password for Memgraph `bolt+s`, RTSPS cameras,
WebDAVS, IPPS, SIPS URIs, StarRocks, Firebolt, MariaDB, KingbaseES,
openGauss, TiDB Cloud, YugabyteDB, Grafana Loki push, Sybase and Informix.

Look-alikes no family wrote as such a set: public halves beside secrets
(hCaptcha site keys, Square application ids, Login with Amazon client
ids, Langfuse public keys), secret *references* and ciphertext (1Password `op://`,
Cirrus `ENCRYPTED[...]`, Zuul `!encrypted/pkcs1-oaep`), AWS unique ids
of groups, instance profiles, policies and certificates (`AGPA`, `AIPA`,
`ANPA`, `ASCA`), Stripe subscription and setup intent ids, airline
record locators, ticket numbers and BCBP strings, flight numbers,
METAR and NOTAM lines, ICAO 24-bit addresses, SMPP message ids and
Diameter session ids, EFW2 employer ids, FITS keywords (RA/DEC, MJD, exposure), HTCondor
job ids, SLURM-style node lists, DOIs, ORCIDs, arXiv ids, ISNIs, ONIX
record references, MISMO loan ids and MERS MINs, FinTS dialog ids and
message lengths, Codemagic `Encrypted(...)` values, BAI2
type codes, QIF dates and amounts, Steam ids, Source engine map and
build numbers, Ignition hashes (`sha512-`), go.sum and Terraform lock
hashes (`h1:`), SRI hashes, CSP nonces, WebSocket keys, VirusTotal file hashes,
GraphQL relay ids (base64 of `Type:id`), Kubernetes bootstrap-token
*ids*, MAC addresses beside IPv6 neighbours, H3 cells, plus codes,
geohashes and Unicode code points. A look-alike any run of whose digits
(solid, or any run of groups split by one space, dash, dot or slash) of
12 to 19 digits passes Luhn is drawn again (heldout19's check, and
here also any 12 to 19 digits inside a longer solid run).

It reuses only the Luhn digit of `detect_corpus.py` and the small value
makers of `detect_values.py`. Its texts are drawn from their own seed
(`detect_corpus.py` offsets the split's seed by 20020). It is the
project's own, like the others.
"""
import base64
import json
import urllib.parse

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, mod97, with_check, family_doc

B32U = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
LOWD = LOW + D
# Decimal digits of scripts no family wrote values in (each block's zero).
ZERO = {"olck": 0x1C50, "mtei": 0xABF0, "cakm": 0x11136, "limb": 0x1946, "lepc": 0x1C40, "talu": 0x19D0, "lana": 0x1A90,
        "bali": 0x1B50, "java": 0xA9D0, "sund": 0x1BB0, "cham": 0xAA50, "kali": 0xA900, "shan": 0x1090, "vaii": 0xA620,
        "osma": 0x104A0, "adlm": 0x1E950, "rohg": 0x10D30, "sans": 0x1D7E2, "dstruck": 0x1D7D8, "mono": 0x1D7F6,
        "segment": 0x1FBF0}


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
            # A long solid run: any window of it.
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


def _uuid(r):
    while True:
        h = "%032x" % r.getrandbits(128)
        h = h[:12] + "4" + h[13:16] + r.choice("89ab") + h[17:]
        u = "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])
        if not _cardish(u):
            return u


# ------------------------------------------------------------ value makers

# SWIFT's IBAN registry: the BBAN of each country as runs of digits (n),
# upper-case letters (a) and letters or digits (c).
IBAN_BBAN = {
    "AD": "4n4n12c", "AE": "3n16n", "AL": "8n16c", "AT": "5n11n", "BA": "3n3n8n2n", "BE": "3n7n2n", "CH": "5n12c",
    "CY": "3n5n16c", "CZ": "4n6n10n", "DK": "4n9n1n", "EE": "2n2n11n1n", "FI": "3n11n", "GR": "3n4n16c", "HR": "7n10n",
    "IE": "4a6n8n", "IS": "4n2n6n10n", "LT": "5n11n", "LU": "3n13c", "LV": "4a13c", "MT": "4a5n18c", "NO": "4n6n1n",
    "PL": "8n16n", "PT": "4n4n11n2n", "RS": "3n13n2n", "SA": "2n18c", "SE": "3n16n1n", "SI": "5n8n2n", "SK": "4n6n10n",
    "TN": "2n3n13n2n", "UA": "6n19c", "XK": "4n10n2n", "SD": "2n12n", "SO": "4n3n12n", "YE": "4a4n18c", "HN": "4a20n",
    "MN": "4n12n", "NI": "4a20n", "OM": "3n16c", "RU": "9n5n15c", "BI": "5n5n11n2n", "DJ": "5n5n11n2n", "FK": "2a12n",
}
IBAN_LEN = {"AD": 24, "AE": 23, "AL": 28, "AT": 20, "BA": 20, "BE": 16, "CH": 21, "CY": 28, "CZ": 24, "DK": 18, "EE": 20,
            "FI": 18, "GR": 27, "HR": 21, "IE": 22, "IS": 26, "LT": 20, "LU": 20, "LV": 21, "MT": 31, "NO": 15, "PL": 28,
            "PT": 25, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24, "TN": 24, "UA": 29, "XK": 20, "SD": 18, "SO": 23,
            "YE": 30, "HN": 28, "MN": 20, "NI": 28, "OM": 23, "RU": 33, "BI": 27, "DJ": 27, "FK": 18}


def _bban(r, spec):
    out, num = "", ""
    for ch in spec:
        if ch.isdigit():
            num += ch
            continue
        alphabet = {"n": D, "a": UP, "c": UP + D}[ch]
        out += _s(r, alphabet, int(num))
        num = ""
    return out


def _iban(r, countries=None):
    country = r.choice(sorted(c for c in IBAN_BBAN if countries is None or c in countries))
    i = with_check(country, _bban(r, IBAN_BBAN[country]))
    assert len(i) == IBAN_LEN[country], (country, i)
    assert mod97(i[4:] + i[:4]) == 1, i
    return i


def _group(s, sep=" ", n=4):
    return sep.join(s[k:k + n] for k in range(0, len(s), n))


def _card(r, m):
    """A card of a usual brand, with its Luhn digit."""
    kind = r.choice(["visa", "visa", "visa19", "mc", "mc2", "amex", "discover", "jcb", "diners", "unionpay"])
    prefix, n = {
        "visa": ("4", 16),
        "visa19": ("4", 19),
        "mc": (str(r.randint(51, 55)), 16),
        "mc2": (str(r.randint(2221, 2720)), 16),
        "amex": (r.choice(["34", "37"]), 15),
        "discover": (r.choice(["6011", "644", "65"]), 16),
        "jcb": (str(r.randint(3528, 3589)), 16),
        "diners": (r.choice(["36", "38"]), 14),
        "unionpay": ("62" + _d(r, 2), r.choice([16, 19])),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


def _groups(c):
    """How the number is grouped when written: 4-6-5 for 15 digits, 4-6-4
    for 14, fours otherwise (the tail shorter)."""
    if len(c) in (14, 15):
        return [c[:4], c[4:10], c[10:]]
    return [c[k:k + 4] for k in range(0, len(c), 4)]


CARD_SEPS = {"enspace": "\u2002", "emdash": "\u2014", "invisible_sep": "\u2063", "zwj": "\u200d", "bom": "\ufeff",
             "space_dash_space": " - ", "space": " ", "solid": ""}

# Brand codes an airline's form of payment glues to the number.
FOP_CODE = {"visa": "VI", "visa19": "VI", "mc": "CA", "mc2": "CA", "amex": "AX", "discover": "DS", "jcb": "JC", "diners": "DC",
            "unionpay": "UP"}


def _card_shown(r, c):
    sep = r.choice(sorted(CARD_SEPS))
    return CARD_SEPS[sep].join(_groups(c)), sep


def _nanp(r, area=None):
    """A NANP number's area code, exchange and line."""
    area = area or "%s%s" % (_nz(r), _d(r, 2))
    return area, _nz(r) + _d(r, 2), _d(r, 4)


# Caribbean NANP areas no family wrote (each with its area code).
CARIB = [("jm", "876"), ("jm", "658"), ("bm", "441"), ("pr", "787"), ("pr", "939"), ("bb", "246"), ("ms", "664"), ("ai", "264"),
         ("gd", "473"), ("vc", "784"), ("ag", "268"), ("do", "809"), ("do", "829"), ("do", "849")]


def _carib(r):
    cc, area = r.choice(CARIB)
    a, x, s = _nanp(r, area)
    shape = r.choice(["plus_space", "plus_dash", "plus_paren", "one_dash", "dots_plus"])
    v = {
        "plus_space": "+1 %s %s %s" % (a, x, s),
        "plus_dash": "+1-%s-%s-%s" % (a, x, s),
        "plus_paren": "+1 (%s) %s-%s" % (a, x, s),
        "one_dash": "1-%s-%s-%s" % (a, x, s),
        "dots_plus": "+1 %s.%s.%s" % (a, x, s),
    }[shape]
    return "%s_%s" % (cc, shape), v, "1" + a + x + s


# Phones in digits no family wrote, each with a short lead in its script
# (approximations written by the session).
SCRIPT_PHONES = [
    ("in_sat", "olck", "ᱯᱷᱚᱱ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in_mni", "mtei", "ꯐꯣꯟ ", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("in_lep", "lepc", "ᰆᰨᰵ ", lambda r: "+91 %s%s-%s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("bd_ccp", "cakm", "𑄜𑄮𑄚𑄴 ", lambda r: "+880 1%s%s-%s" % (r.choice("3456789"), _d(r, 2), _d(r, 6))),
    ("bd_rohg", "rohg", "☎ ", lambda r: "+880 1%s%s %s" % (r.choice("3456789"), _d(r, 2), _d(r, 6))),
    ("np_lif", "limb", "ᤁᤠᤏ ", lambda r: "+977 98%s-%s" % (_d(r, 1), _d(r, 7))),
    ("cn_khb", "talu", "ᦎᦸᦰ ", lambda r: "+86 1%s%s %s %s" % (r.choice("3578"), _d(r, 1), _d(r, 4), _d(r, 4))),
    ("th_nod", "lana", "ᨣᩮᩬᩥ ", lambda r: "+66 %s%s %s %s" % (r.choice("689"), _d(r, 1), _d(r, 3), _d(r, 4))),
    ("id_ban", "bali", "ᬢᬾᬮ᭄ᬧᭀᬦ᭄ ", lambda r: "+62 8%s%s-%s-%s" % (r.choice("1235"), _d(r, 1), _d(r, 4), _d(r, 4))),
    ("id_jv", "java", "ꦠꦺꦭ꧀ꦥꦺꦴꦤ꧀ ", lambda r: "+62 8%s%s-%s-%s" % (r.choice("1235"), _d(r, 1), _d(r, 4), _d(r, 4))),
    ("id_su", "sund", "ᮒᮦᮜ᮪ᮕᮧᮔ᮪ ", lambda r: "+62 8%s%s %s %s" % (r.choice("1235"), _d(r, 1), _d(r, 4), _d(r, 4))),
    ("vn_cjm", "cham", "☎ ", lambda r: "+84 %s%s %s %s" % (r.choice("35789"), _d(r, 2), _d(r, 3), _d(r, 3))),
    ("mm_kyu", "kali", "☎ ", lambda r: "+95 9 %s %s %s" % (_d(r, 3), _d(r, 3), _d(r, 3))),
    ("mm_shn", "shan", "ၽူၼ်း ", lambda r: "+95 9 %s %s" % (_d(r, 4), _d(r, 5))),
    ("lr_vai", "vaii", "☎ ", lambda r: "+231 %s %s %s" % (r.choice(["77", "88"]), _d(r, 3), _d(r, 4))),
    ("so_osm", "osma", "𐒂𐒖𐒐 ", lambda r: "+252 6%s %s %s" % (r.choice("1235"), _d(r, 3), _d(r, 4))),
    ("sn_adlm", "adlm", "𞤼𞤫𞤤 ", lambda r: "+221 7%s %s %s %s" % (r.choice("05678"), _d(r, 3), _d(r, 2), _d(r, 2))),
]


def _v4(r):
    return "%d.%d.%d.%d" % (r.choice([3, 8, 12, 17, 24, 31, 37, 41, 45, 50, 63, 66, 70, 73, 77, 84, 87, 91, 95, 98, 104, 108,
                                      113, 122, 128, 134, 141, 147, 152, 157, 165, 170, 174, 185, 193, 198, 206, 209, 216]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _eui64(r):
    """A SLAAC interface id from a MAC: the U/L bit flipped, ff:fe in the middle."""
    mac = [r.randint(0, 255) for _ in range(6)]
    mac[0] = (mac[0] & 0xfc) ^ 0x02
    return "%x:%x:%x:%x" % (mac[0] << 8 | mac[1], mac[2] << 8 | 0xff, 0xfe00 | mac[3], mac[4] << 8 | mac[5])


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2600:1010:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # a US mobile carrier
        lambda: "2600:1700:%s:%s:%s" % (g(), g(), _eui64(r)),                      # a US fibre ISP, SLAAC
        lambda: "2600:380:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),      # a US mobile carrier
        lambda: "2600:6c%02x:%s:%s::%s" % (r.randint(0, 255), g(), g(), g()),       # a US cable ISP
        lambda: "2a02:c7f:%s:%s:%s" % (g(), g(), _eui64(r)),                       # a UK ISP, SLAAC
        lambda: "2001:268:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),      # a Japanese carrier
        lambda: "240d:c000:%s:%s::%s" % (g(), g(), g()),                            # a Chinese cloud
        lambda: "fd%02x:%s:%s:%s::%s" % (r.randint(0, 255), g(), g(), g(), g()),    # a unique local address
    ])()


def _jwt(r, alg=None, body=None, typ="JWT"):
    alg = alg or r.choice(["RS256", "ES256", "ES384", "PS384", "EdDSA", "HS256"])
    head = {"typ": typ, "alg": alg} if typ else {"alg": alg}
    if r.random() < 0.5:
        head["kid"] = r.choice([_uuid(r), _s(r, B64URL, 27), _hx(r, 16)])
    if body is None:
        iat = r.randint(1_760_000_000, 1_790_000_000)
        body = {"iss": r.choice(["https://auth.example.flights", "https://idp.example.science/realms/hpc", "https://sso.example.mortgage",
                                 "https://id.example.game/application/o/srcds/"]),
                "sub": r.choice([_uuid(r), "crew:%s" % _s(r, LOWD, 7), "pilot-%d" % r.randint(100, 9999)]),
                "aud": r.choice(["pnr-gateway", "condor-ap", "loan-portal", _hx(r, 20)]),
                "iat": iat, "exp": iat + r.choice([600, 1800, 3600, 86400])}
    n = {"RS256": 342, "PS384": 342, "ES256": 86, "ES384": 128, "EdDSA": 86, "HS256": 43}.get(alg, 43)
    return "%s.%s.%s" % (_b64u(json.dumps(head, separators=(",", ":"))), _b64u(json.dumps(body, separators=(",", ":"))), _s(r, B64URL, n))


def _ec_der(r):
    """A SEC1 P-256 private key, DER."""
    return bytes.fromhex("30770201010420") + _rb(r, 32) + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + _rb(r, 64)


def _rsa_der(r):
    """A PKCS#8 RSA-2048 private key, DER (the structure's head, then the key's bytes)."""
    return bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7308204a302010002820101") + _rb(r, 1217 - 37)


def _ed_der(r):
    """A PKCS#8 Ed25519 private key, DER."""
    return bytes.fromhex("302e020100300506032b657004220420") + _rb(r, 32)


def _p12_der(r):
    """The head of a PKCS#12 bundle (version 3, authSafe data), then its bytes."""
    return bytes.fromhex("30820a610201033082 0a2706092a864886f70d010701a0820a1804820a14".replace(" ", "")) + _rb(r, 2660 - 30)


def _pem(r, kind=None):
    kind = kind if kind is not None else r.choice(["", "RSA ", "EC "])
    der = {"": r.choice([_rsa_der, _ed_der]), "RSA ": _rsa1_der, "EC ": _ec_der}[kind](r)
    body = base64.b64encode(der).decode()
    lines = [body[k:k + 64] for k in range(0, len(body), 64)]
    return "\n".join(["-----BEGIN %sPRIVATE KEY-----" % kind] + lines + ["-----END %sPRIVATE KEY-----" % kind]), kind.strip().lower() or "pkcs8"


def _rsa1_der(r):
    """A PKCS#1 RSA-2048 private key, DER."""
    return bytes.fromhex("308204a40201000282010100") + _rb(r, 1192 - 12)


def _pw(r):
    return _tok(r, r.randint(12, 24)) + r.choice(["", "", "!", "#", "$", "%", "+", "=", "@", "-"])


def _url_pw(r):
    return _tok(r, r.randint(10, 24)) + r.choice(["", "", "", "%24", "%25", "%3A", "%3F", "%C3%A9", "%E2%82%AC", "-", "."])


# ------------------------------------------------------------ prose
#
# Short phrases written by the session, only roughly idiomatic (many of
# these languages it does not speak; the phrase is then an approximation).

PROSE = {
    "inh": "Дика дехар ду, {} тӀе язде ",                 # Ingush
    "krc": "Къайгъы этигиз, {} ге джазыгъыз ",           # Karachay-Balkar
    "alt": "Јакшы болзын, {} јаар бичигер ",              # Altai
    "kjh": "Пасхачы, {} читіре пичік пас ",              # Khakas
    "dlg": "Бука, {} суруйуҥ ",                          # Dolgan
    "ckt": "Ыннӄун, {} гэтгыргэн ",                      # Chukchi
    "kpy": "Кмиӈ, {} ",                                  # Koryak
    "gld": "Улэн, {} хэсэлэу ",                          # Nanai
    "jje": "ᄒᆞᄊᆞᆯ {} 로 연락ᄒᆞᆸ서 ",                    # Jeju
    "bjn": "Tulung, kirimi ka {} ",                      # Banjar
    "sas": "Tulung, kirim lẽq {} ",                      # Sasak
    "mad": "Tolong, kerrem ka {} ",                      # Madurese
    "gor": "Tulungi, kirimi ode {} ",                    # Gorontalo
    "mak": "Tulungi, kirikangi ri {} ",                  # Makassarese
    "pag": "Pakiusan, ipawit ed {} ",                    # Pangasinan
    "mrw": "Tabangi ako, ipadala ko {} ",                # Maranao
    "tsg": "Tabangi kami, padalaha pa {} ",              # Tausug
    "yap": "Mu pining, mu yoloy ngak {} ",               # Yapese
    "chk": "Kose mochen, ouwa makkei ngeni {} ",         # Chuukese
    "pon": "Menlau, ntingihong {} ",                     # Pohnpeian
    "kos": "Kulo, srolah nu {} ",                        # Kosraean
    "tkl": "Fakamolemole, tuhi mai ki {} ",              # Tokelauan
    "gul": "Oona write um to {} ",                       # Gullah
    "lou": "Silvouplè, ekri a {} ",                      # Louisiana Creole
    "crg": "Sivouplay, ekri a {} ",                      # Michif
    "one": "Yaw^kó, {} ",                                # Oneida
    "cay": "Nyaweh, {} ",                                # Cayuga
    "com": "Ura, {} ",                                   # Comanche
    "kio": "Aho, {} ",                                   # Kiowa
    "arp": "Hohou, {} ",                                 # Arapaho
    "shh": "Aishen, {} ",                                # Shoshone
    "hai": "Háw'aa, {} ",                                # Haida
    "squ": "Chen kw'enmántumi, {} ",                     # Squamish
    "gwi": "Mahsi' choo, {} ",                           # Gwich'in
    "ale": "Qagaasakung, {} ",                           # Aleut
    "qug": "Yupaychani, {} kaman killkay ",              # Kichwa
    "jiv": "Yuminsajme, {} ",                            # Shuar
    "dag": "Ti paɣiya, sabim n-ti {} ",                  # Dagbani
    "mos": "Bark wʋsgo, gʋlsg n kɩt {} ",                # Mooré
    "dyu": "I ni ce, sɛbɛn ka ci {} ma ",                # Dioula
    "snk": "Nwaari, safande {} ",                        # Soninke
    "ses": "Fofo, hantum {} ",                           # Songhay
    "rif": "Tanmmirt, ari ɣer {} ",                      # Tarifit
    "kg": "Ntondele, sonika na {} ",                     # Kikongo
    "kam": "Ni muvea, andikia {} ",                      # Kamba
    "kln": "Kongoi, sir ak {} ",                         # Kalenjin
    "sid": "Galateemmo, {} borreessi ",                  # Sidamo
    "ssy": "Gaddaale, {} ",                              # Saho
    "nus": "Locdu, gɔr kɛ {} ",                          # Nuer
    "din": "Yin ca leec, gɔɔr tënë {} ",                 # Dinka
    "zdj": "Marahaba, andika ha {} ",                    # Comorian
}


def _prose(r, doc, value, cls, form_prefix, word, claimed=True):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n", claimed)


# ------------------------------------------------------------ carriers
#
# Surroundings every class is written in: travel and telecom records,
# astronomy and HPC files, publishing sources, finance files, game
# servers, provisioning, CI and configuration formats. Each takes a label
# and gives the text before and after the value.

def _carrier(r, label):
    form = r.choice(["pnr_rm", "acars", "smpp_sm", "fits", "netcdf", "htcondor", "snakemake", "cff", "codemeta", "onix", "jats",
                     "docbook", "texinfo", "hjson", "json5", "ucl", "hujson", "kcl", "sv", "spss", "earthfile", "quadlet",
                     "ignition", "autoyast", "bitrise", "codemagic", "appveyor", "cirrus", "semaphore", "zuul", "dagger",
                     "terragrunt", "atlantis", "srcds_cfg", "qif", "bai2", "mismo", "diameter"])
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    camel = "".join(w.title() if k else w for k, w in enumerate(key.split("_")))
    pascal = camel[:1].upper() + camel[1:]
    up = key.upper()
    lead, tail = {
        "pnr_rm": ("RP/NCE1A0955/NCE1A0955            AA/SU   7DEC26/0412Z   %s\n  1.%s/%s MRS\n  5 RM *%s " % (
            _s(r, UP + "23456789", 6), r.choice(["ADEBAYO", "KOROSTELEV", "TUILAGI"]), r.choice(["NOOR", "ILSE", "MOANA"]), label.upper()), "\n"),
        "acars": ("QU NCEOWXH\n.DDLXCXA 07%02d%02d\nCMD\nAN F-%s/GL %s\n- FTX %s " % (r.randint(0, 23), r.randint(0, 59), _s(r, UP, 4), _s(r, UP, 5), label.upper()), "\n"),
        "smpp_sm": ("submit_sm: service_type=\"\" data_coding=0x00 esm_class=0x00\n  short_message=\"%s: " % label, "\"\n"),
        "fits": ("COMMENT   %s: " % label, "\nEND\n"),
        "netcdf": ("\t\t:%s = \"" % key, "\" ;\n"),
        "htcondor": ("universe = vanilla\nexecutable = reduce.sh\n+%s = \"" % pascal, "\"\nqueue\n"),
        "snakemake": ("rule notify:\n    params:\n        %s=\"" % key, "\"\n    shell: \"notify {params}\"\n"),
        "cff": ("cff-version: 1.2.0\nmessage: \"%s: " % label, "\"\n"),
        "codemeta": ("{\"@context\": \"https://w3id.org/codemeta/3.0\", \"@type\": \"SoftwareSourceCode\", \"%s\": \"" % camel, "\"}\n"),
        "onix": ("<TextContent>\n  <TextType>03</TextType>\n  <Text>%s: " % label, "</Text>\n</TextContent>\n"),
        "jats": ("<notes notes-type=\"%s\"><p>" % key.replace("_", "-"), "</p></notes>\n"),
        "docbook": ("<para>%s: <literal>" % label, "</literal></para>\n"),
        "texinfo": ("@c %s: " % label, "\n@bye\n"),
        "hjson": ("{\n  # %s\n  %s: " % (label, camel), "\n}\n"),
        "json5": ("{\n  %s: '" % camel, "', // %s\n}\n" % label),
        "ucl": ("%s = \"" % key, "\";\n"),
        "hujson": ("{\n  // %s\n  \"%s\": \"" % (label, camel), "\",\n}\n"),
        "kcl": ("schema Station:\n    %s: str\n\nstation = Station {\n    %s = \"" % (key, key), "\"\n}\n"),
        "sv": ("  localparam string %s = \"" % up, "\";\n"),
        "spss": ("STRING %s (A80).\nCOMPUTE %s = '" % (key[:8], key[:8]), "'.\nEXECUTE.\n"),
        "earthfile": ("build:\n    FROM alpine:3.20\n    ENV %s=\"" % up, "\"\n    RUN ./reduce.sh\n"),
        "quadlet": ("[Container]\nImage=registry.example.science/reduce:latest\nEnvironment=%s=" % up, "\n"),
        "ignition": ("{\"ignition\": {\"version\": \"3.4.0\"}, \"storage\": {\"files\": [{\"path\": \"/etc/%s\", \"contents\": {\"inline\": \"" % key, "\"}}]}}\n"),
        "autoyast": ("<profile xmlns=\"http://www.suse.com/1.0/yast2ns\">\n  <%s>" % key, "</%s>\n</profile>\n" % key),
        "bitrise": ("app:\n  envs:\n  - %s: \"" % up, "\"\n    opts:\n      is_expand: false\n"),
        "codemagic": ("workflows:\n  ios-release:\n    environment:\n      vars:\n        %s: \"" % up, "\"\n"),
        "appveyor": ("environment:\n  %s: " % up, "\nbuild_script:\n  - cmd: build.cmd\n"),
        "cirrus": ("task:\n  env:\n    %s: " % up, "\n  script: ./reduce.sh\n"),
        "semaphore": ("      env_vars:\n        - name: %s\n          value: \"" % up, "\"\n"),
        "zuul": ("- job:\n    name: reduce-notify\n    vars:\n      %s: \"" % key, "\"\n"),
        "dagger": ("\treturn dag.Container().From(\"alpine:3.20\").WithEnvVariable(\"%s\", \"" % up, "\").Sync(ctx)\n"),
        "terragrunt": ("inputs = {\n  %s = \"" % key, "\"\n}\n"),
        "atlantis": ("workflows:\n  custom:\n    plan:\n      steps:\n      - env:\n          name: %s\n          value: " % up, "\n      - plan\n"),
        "srcds_cfg": ("// %s\nsetinfo %s \"" % (label, key), "\"\n"),
        "qif": ("!Type:Bank\nD12/07'26\nT-%d.%02d\nP%s\nM%s: " % (r.randint(1, 999), r.randint(0, 99), label.upper(), label), "\n^\n"),
        "bai2": ("16,475,%d,0,,,/\n88,%s " % (r.randint(100, 999999), label.upper()), "/\n"),
        "mismo": ("<NOTE>\n  <NoteText>%s: " % label, "</NoteText>\n</NOTE>\n"),
        "diameter": ("    AVP: Session-Id(263) l=%d f=-M-\n    AVP: Vendor-Specific-Application-Id(260)\n    AVP: Reply-Message(18) val=%s " % (
            r.randint(40, 80), label), "\n"),
    }[form]
    return form, lead, tail


def _carry(r, doc, label, value, cls, form_prefix, claimed=True):
    f, lead, tail = _carrier(r, label)
    _put(doc, lead, value, cls, "%s_%s" % (form_prefix, f), tail, claimed)


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


# ------------------------------------------------------------ items

def _email(r):
    local = r.choice(["noor.adebayo", "ilse_korostelev", "moana-tuilagi", "obs.night", "hpc_alerts", "crew-ops", "k.banjar",
                      "loan.desk", "payroll_7", "rcon-admin", "m.sasak", "arxiv-bot", "onix_feed", "Dagbani.Desk", "jeju.station",
                      "pnr-agent", "fits.archive", "condor_admin", "ilse.k", "ab12"])
    dom = r.choice(["example.flights", "obs.example.science", "hpc.example.university", "example.mortgage", "press.example.pub",
                    "example.game", "crew.example.airline.aero", "example.engineering", "example.phone", "mail.example.ac.nz",
                    "Example.Observer", "example.cloud"])
    return "%s@%s" % (local, dom)


def _pnr_email(e):
    """An email as an airline reservation writes it: `//` for the at,
    `..` for an underscore, `./` for a hyphen, in capitals."""
    local, dom = e.upper().split("@")
    return local.replace("_", "..").replace("-", "./") + "//" + dom.replace("-", "./")


def i_email(r, doc, m):
    form = r.choice(["pnr_ctce", "texinfo", "latex", "html_entity", "json_u0040", "jats", "docbook", "onix", "cff", "codemeta",
                     "netcdf", "fits", "htcondor", "mismo", "bitrise", "codemagic", "appveyor", "vcard21", "mecard",
                     "carrier", "carrier", "carrier", "prose"])
    e = _email(r)
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        _carry(r, doc, "e-mail", e, "email", "carrier")
        return
    local, dom = e.split("@")
    if form == "pnr_ctce":
        _put(doc, "  %d SSR CTCE YY HK1/" % r.randint(3, 9), _pnr_email(e), "email", form, "/P1\n")
        return
    if form == "texinfo":
        # Texinfo doubles an at sign.
        _put(doc, "@node Bugs\n@chapter Reporting Bugs\nSend reports to @email{", local + "@@" + dom, "email", form, "}.\n")
        return
    if form == "latex":
        # The link target is written as is, the shown text with its underscores escaped.
        shown = local.replace("_", "\\_") + "@" + dom
        _seq(doc, form, ["\\thanks{Corresponding author: \\href{mailto:", (e, "email"), "}{\\texttt{", (shown, "email"), "}}}\n"])
        return
    if form == "html_entity":
        at = r.choice(["&#64;", "&#x40;", "&commat;"])
        _put(doc, "<p>Questions? Write to <span class=\"mail\">", local + at + dom, "email", form, "</span></p>\n")
        return
    if form == "json_u0040":
        _put(doc, "{\"contact\":{\"name\":\"Ilse K.\",\"email\":\"", local + "\\u0040" + dom, "email", form, "\"}}\n")
        return
    if form == "jats":
        _seq(doc, form, ["<corresp id=\"cor1\">* Corresponding author. <email xlink:href=\"mailto:", (e, "email"), "\">", (e, "email"), "</email></corresp>\n"])
        return
    if form == "vcard21":
        _seq(doc, form, ["BEGIN:VCARD\nVERSION:2.1\nN:Adebayo;Noor\nEMAIL;PREF;INTERNET:", (e, "email"), "\nEND:VCARD\n"])
        return
    if form == "mecard":
        _seq(doc, form, ["MECARD:N:Adebayo,Noor;EMAIL:", (e, "email"), ";;"  "\n"])
        return
    lead, tail = {
        "docbook": ("<author><personname>Noor Adebayo</personname>\n  <affiliation><address><email>", "</email></address></affiliation></author>\n"),
        "onix": ("<Supplier>\n  <SupplierRole>01</SupplierRole>\n  <SupplierName>Example Press</SupplierName>\n  <EmailAddress>", "</EmailAddress>\n</Supplier>\n"),
        "cff": ("authors:\n  - family-names: Korostelev\n    given-names: Ilse\n    email: ", "\n    affiliation: \"Example Observatory\"\n"),
        "codemeta": ("\"author\": [{\"@type\": \"Person\", \"givenName\": \"Ilse\", \"familyName\": \"Korostelev\", \"email\": \"", "\"}],\n"),
        "netcdf": ("\t\t:creator_name = \"Ilse Korostelev\" ;\n\t\t:creator_email = \"", "\" ;\n"),
        "fits": ("OBSERVER= 'I. Korostelev'       / observer\nCONTACT = '", "' / data contact\n"),
        "htcondor": ("executable = reduce.sh\nnotification = Error\nnotify_user = ", "\nqueue 24\n"),
        "mismo": ("<CONTACT_POINT>\n  <CONTACT_POINT_EMAIL>\n    <ContactPointEmailValue>", "</ContactPointEmailValue>\n  </CONTACT_POINT_EMAIL>\n</CONTACT_POINT>\n"),
        "bitrise": ("GIT_CLONE_COMMIT_AUTHOR_NAME=Noor Adebayo\nGIT_CLONE_COMMIT_AUTHOR_EMAIL=", "\nBITRISE_GIT_BRANCH=main\n"),
        "codemagic": ("    publishing:\n      email:\n        recipients:\n          - ", "\n        notify:\n          success: false\n"),
        "appveyor": ("notifications:\n  - provider: Email\n    to:\n      - ", "\n    on_build_failure: true\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def _seq_unclaimed(doc, form, parts):
    """`_seq`, its items labeled out of the documented scope (phone digits without their plus)."""
    for p in parts:
        if isinstance(p, tuple):
            doc.item(p[0], p[1], "t_" + form, False)
        else:
            doc.t(p)


def i_phone(r, doc, m):
    form = r.choice(["script", "script", "script", "smpp", "cdr", "diameter", "ssr_ctcm", "at_cmgs", "at_dial", "mecard", "vcard21",
                     "tg_resolve", "wtai", "mismo", "hidden_sep", "enspace", "carrier", "carrier", "prose"])
    if form == "script":
        cc, script, lead, mk = r.choice(SCRIPT_PHONES)
        _put(doc, lead, _digits(mk(r), script), "phone", "script_%s_%s" % (script, cc), "\n")
        return
    if form == "mismo":
        # A US loan file: ten digits, no separators.
        a, x, s = _nanp(r)
        _put(doc, "<CONTACT_POINT_TELEPHONE>\n  <ContactPointTelephoneValue>", a + x + s, "phone", form, "</ContactPointTelephoneValue>\n</CONTACT_POINT_TELEPHONE>\n",
             claimed=False)
        return
    cc, shown, digits = _carib(r)
    e164 = "+" + digits
    if form == "prose":
        _prose(r, doc, shown, "phone", "prose_" + cc, "tel.")
        return
    if form == "carrier":
        _carry(r, doc, "phone", shown, "phone", "carrier_" + cc)
        return
    if form == "hidden_sep":
        sep = r.choice(["\u2063", "\u200d", "\ufeff"])
        a, x, s = digits[1:4], digits[4:7], digits[7:]
        _put(doc, "Phone: ", "+1" + sep + a + sep + x + sep + s, "phone", "hidden_sep_%04x_%s" % (ord(sep), cc), "\n")
        return
    if form == "enspace":
        a, x, s = digits[1:4], digits[4:7], digits[7:]
        _put(doc, "Tel.\u2002", "+1\u2002%s\u2002%s\u2002%s" % (a, x, s), "phone", "enspace_" + cc, "\n")
        return
    if form == "smpp":
        # SMPP writes the address without a plus (ton=1, npi=1 say it is international).
        parts = ["submit_sm: source_addr_ton=1 source_addr_npi=1 source_addr=", (digits, "phone"),
                 " dest_addr_ton=1 dest_addr_npi=1 destination_addr=", (_carib(r)[2], "phone"), " registered_delivery=1\n"]
        _seq_unclaimed(doc, form + "_" + cc, parts)
        return
    if form == "cdr":
        parts = ["\"start\",\"calling_number\",\"called_number\",\"duration\",\"disposition\"\n\"2026-12-07 04:%02d:%02d\",\"" % (r.randint(0, 59), r.randint(0, 59)),
                 (digits, "phone"), "\",\"", (_carib(r)[2], "phone"), "\",\"%d\",\"ANSWERED\"\n" % r.randint(1, 3600)]
        _seq_unclaimed(doc, form + "_" + cc, parts)
        return
    lead, v, tail = {
        "diameter": ("    AVP: Subscription-Id(443) l=44 f=-M-\n        AVP: Subscription-Id-Type(450) l=12 f=-M- val=END_USER_E164 (0)\n"
                     "        AVP: Subscription-Id-Data(444) l=19 f=-M- val=", digits, "\n"),
        "ssr_ctcm": ("  %d SSR CTCM YY HK1/" % r.randint(3, 9), digits, "/P1\n"),
        "at_cmgs": ("AT+CMGF=1\r\nOK\r\nAT+CMGS=\"", e164, "\"\r\n> gate 14 closed\x1a\r\n"),
        "at_dial": ("ATZ\r\nOK\r\nATD", e164, ";\r\nCONNECT\r\n"),
        "mecard": ("MECARD:N:Tuilagi,Moana;TEL:", e164, ";;\n"),
        "vcard21": ("BEGIN:VCARD\nVERSION:2.1\nN:Tuilagi;Moana\nTEL;CELL;VOICE:", shown, "\nEND:VCARD\n"),
        "tg_resolve": ("<a href=\"tg://resolve?phone=", digits, "\">Telegram</a>\n"),
        "wtai": ("<a href=\"wtai://wp/mc;", e164, "\">Call</a>\n"),
    }[form]
    # Digits without their plus are out of the documented scope, as
    # heldout18 labels a Matrix msisdn.
    _put(doc, lead, v, "phone", "%s_%s" % (form, cc), tail, claimed=v.startswith("+"))


SSN_LANG = [
    ("ar", "رقم الضمان الاجتماعي: \u200e", "\u200e\n"),
    ("fa", "شماره تامین اجتماعی: \u200e", "\u200e\n"),
    ("fr", "Numéro de sécurité sociale (SSN) : ", "\n"),
    ("el", "Αριθμός Κοινωνικής Ασφάλισης: ", "\n"),
    ("ht", "Nimewo Sekirite Sosyal: ", "\n"),
    ("it", "Numero di previdenza sociale (SSN): ", "\n"),
    ("pl", "Numer Ubezpieczenia Społecznego (SSN): ", "\n"),
    ("pt", "Número do Seguro Social: ", "\n"),
    ("ru", "Номер социального страхования: ", "\n"),
]


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["efw2", "mismo", "peoplesoft", "sap_pa0002", "metro2", "ub04", "enspace", "hbar", "lang", "lang", "lang",
                     "carrier", "carrier", "carrier"])
    if form == "carrier":
        _carry(r, doc, r.choice(["SSN", "social security number"]), dashed, "us_ssn", "carrier")
        return
    if form == "lang":
        lang, lead, tail = r.choice(SSN_LANG)
        _put(doc, lead, dashed, "us_ssn", "lang_" + lang, tail)
        return
    if form == "efw2":
        # An EFW2 wage record: `RW`, then the nine digits, then the name, all fixed width.
        doc.t("RA")
        doc.look("%02d%07d" % (r.randint(10, 99), r.randint(0, 9999999)), "efw2_ein")
        doc.t(" " * 17 + "\nRE2026 ")
        doc.look("%02d%07d" % (r.randint(10, 99), r.randint(0, 9999999)), "efw2_ein")
        doc.t("\nRW")
        doc.item(a + g + s, "us_ssn", "t_efw2", False)
        doc.t("%-15s%-15s%-20s\n" % (r.choice(["NOOR", "MOANA", "ILSE"]), "", r.choice(["ADEBAYO", "TUILAGI", "KOROSTELEV"])))
        return
    lead, v, tail = {
        "mismo": ("<TAXPAYER_IDENTIFIER>\n  <TaxpayerIdentifierType>SocialSecurityNumber</TaxpayerIdentifierType>\n  <TaxpayerIdentifierValue>", a + g + s,
                  "</TaxpayerIdentifierValue>\n</TAXPAYER_IDENTIFIER>\n"),
        "peoplesoft": ("EMPLID,COUNTRY,NATIONAL_ID_TYPE,NATIONAL_ID,PRIMARY_NID\n%06d,USA,PR," % r.randint(1, 999999), a + g + s, ",Y\n"),
        "sap_pa0002": ("PERNR     NACHN          VORNA          PERID\n%08d  %-14s %-14s " % (r.randint(1, 99999999), r.choice(["Adebayo", "Tuilagi"]), r.choice(["Noor", "Moana"])),
                       dashed, "\n"),
        "metro2": ("Field 17A Surname: TUILAGI\nField 17B First Name: MOANA\nField 19 Social Security Number: ", a + g + s, "\nField 20 Date of Birth: 0%d1%d19%02d\n" % (
            r.randint(1, 9), r.randint(0, 9), r.randint(40, 99))),
        "ub04": ("FL58 INSURED'S NAME: ADEBAYO, NOOR\nFL60 INSURED'S UNIQUE ID: ", a + g + s, "\nFL61 GROUP NAME: EXAMPLE MORTGAGE\n"),
        "enspace": ("SSN\u2002", "%s\u2002%s\u2002%s" % (a, g, s), "\n"),
        "hbar": ("Social Security No. ", "%s\u2015%s\u2015%s" % (a, g, s), "\n"),
    }[form]
    # Solid digits under no SSN word are out of the documented scope.
    _put(doc, lead, v, "us_ssn", form, tail, claimed=form not in ("peoplesoft", "ub04"))


CARD_SCRIPTS = {"olck": "ᱠᱟᱨᱰ ", "mtei": "ꯀꯥꯔꯗ ", "cakm": "𑄇𑄢𑄴𑄓𑄴 ", "java": "ꦏꦂꦠꦸ ", "bali": "ᬓᬃᬢᬸ ", "sund": "ᮊᮁᮒᮥ ",
                "adlm": "𞤳𞤢𞤪𞤼 ", "osma": "𐒏𐒖𐒇𐒆 ", "vaii": "💳 ", "sans": "💳 𝖢𝖺𝗋𝖽: ", "dstruck": "💳 ", "mono": "𝙲𝚊𝚛𝚍: ",
                "segment": "CARD "}


def i_card(r, doc, m):
    c, kind = _card(r, m)
    form = r.choice(["pnr_fop", "cielo", "yookassa", "paytm", "script", "script", "script", "sep", "sep", "carrier", "carrier", "prose"])
    if form == "script":
        script = r.choice(sorted(CARD_SCRIPTS))
        shown = _digits(r.choice([" ".join(_groups(c)), c]), script)
        _put(doc, CARD_SCRIPTS[script], shown, "credit_card", "script_%s_%s" % (script, kind), "\n")
        return
    if form == "pnr_fop":
        # An airline's form of payment: FP, CC, the brand's code, then the number and the expiry.
        _put(doc, "  %d FP CC%s" % (r.randint(6, 12), FOP_CODE[kind]), c, "credit_card", "pnr_fop_" + kind, "/%02d%02d\n" % (r.randint(1, 12), r.randint(27, 31)))
        return
    if form == "paytm":
        _put(doc, "\"paymentMode\": \"CREDIT_CARD\", \"cardInfo\": \"|", c, "credit_card", "paytm_" + kind, "|***|%02d20%02d\",\n" % (r.randint(1, 12), r.randint(27, 31)))
        return
    shown, sep = _card_shown(r, c)
    if form == "sep":
        _put(doc, r.choice(["Card: ", "Номер карты: ", "Número do cartão: ", "Kartnummer: "]), shown, "credit_card", "sep_%s_%s" % (sep, kind), "\n")
        return
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s_%s" % (sep, kind), "card")
        return
    if form == "carrier":
        _carry(r, doc, r.choice(["card number", "card"]), shown, "credit_card", "carrier_%s_%s" % (sep, kind))
        return
    lead, tail = {
        "cielo": ("{\"MerchantOrderId\": \"%d\", \"Payment\": {\"Type\": \"CreditCard\", \"Amount\": %d, \"CreditCard\": {\"CardNumber\": \"" % (r.randint(10 ** 9, 10 ** 10 - 1), r.randint(100, 99999)),
                  "\", \"Holder\": \"MOANA TUILAGI\", \"ExpirationDate\": \"%02d/20%02d\"}}}\n" % (r.randint(1, 12), r.randint(27, 31))),
        "yookassa": ("{\"payment_method_data\": {\"type\": \"bank_card\", \"card\": {\"number\": \"", "\", \"expiry_year\": \"20%02d\", \"expiry_month\": \"%02d\"}}}\n" % (
            r.randint(27, 31), r.randint(1, 12))),
    }[form]
    _put(doc, lead, c, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = _group(i)
    form = r.choice(["fints", "sparkasse_csv", "n26_csv", "stet", "polishapi", "pain008", "camt054", "qif", "enspace", "hyphen",
                     "lower", "carrier", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    if form == "carrier":
        _carry(r, doc, "IBAN", r.choice([i, spaced]), "iban", "carrier")
        return
    if form == "lower":
        # Typed in a chat, in lower case (validators upper-case it first).
        _put(doc, r.choice(["my iban is ", "iban pls: ", "send it to "]), r.choice([i, spaced]).lower(), "iban", form, " thx\n")
        return
    if form == "polishapi":
        i = _iban(r, {"PL"})
    if form == "sparkasse_csv":
        # The export's own account is an IBAN too.
        _seq(doc, form, ["\"Auftragskonto\";\"Buchungstag\";\"Valutadatum\";\"Buchungstext\";\"Verwendungszweck\";\"Beguenstigter/Zahlungspflichtiger\";\"Kontonummer/IBAN\"\n\"",
                         (with_check("DE", _d(r, 18)), "iban"), "\";\"07.12.26\";\"07.12.26\";\"GUTSCHRIFT\";\"Miete Dezember\";\"Ilse Korostelev\";\"", (i, "iban"), "\"\n"])
        return
    lead, v, tail = {
        "fints": ("HKCCS:3:1+", i, ":%s+urn?:iso?:std?:iso?:20022?:tech?:xsd?:pain.001.001.09+@%d@<?xml version='1.0'?>'\n" % (
            _s(r, UP, 4) + i[:2] + _s(r, UP + D, 2) + "XXX", r.randint(900, 2000))),
        "n26_csv": ("\"Booking Date\",\"Value Date\",\"Partner Name\",\"Partner Iban\",\"Type\",\"Amount (EUR)\"\n\"2026-12-07\",\"2026-12-07\",\"Moana Tuilagi\",\"", i,
                    "\",\"Credit Transfer\",\"-%d.%02d\"\n" % (r.randint(1, 999), r.randint(0, 99))),
        "stet": ("POST /stet/psd2/v1.6/payment-requests\n{\"paymentInformationId\": \"%s\", \"creditTransferTransaction\": [{\"beneficiary\": {\"creditorAccount\": {\"iban\": \"" % _s(r, UP + D, 12),
                 i, "\"}}}]}\n"),
        "polishapi": ("{\"recipient\": {\"accountNumber\": \"", i, "\", \"nameAddress\": {\"value\": [\"Ilse Korostelev\"]}}, \"transferData\": {\"amount\": \"%d.%02d\"}}\n" % (
            r.randint(1, 9999), r.randint(0, 99))),
        "pain008": ("<DrctDbtTxInf>\n  <PmtId><EndToEndId>%s</EndToEndId></PmtId>\n  <DrctDbtTx><MndtRltdInf><MndtId>MND-%d</MndtId></MndtRltdInf></DrctDbtTx>\n"
                    "  <DbtrAcct><Id><IBAN>" % (_s(r, UP + D, 16), r.randint(1000, 99999)), i, "</IBAN></Id></DbtrAcct>\n</DrctDbtTxInf>\n"),
        "camt054": ("<NtryDtls><TxDtls><RltdPties>\n  <Dbtr><Pty><Nm>Noor Adebayo</Nm></Pty></Dbtr>\n  <DbtrAcct><Id><IBAN>", i, "</IBAN></Id></DbtrAcct>\n</RltdPties></TxDtls></NtryDtls>\n"),
        "qif": ("!Type:Bank\nD12/07'26\nT-%d.%02d\nPRENT DECEMBER\nMIBAN " % (r.randint(100, 2000), r.randint(0, 99)), spaced, "\n^\n"),
        "enspace": ("IBAN\u2002", _group(i, "\u2002"), "\n"),
        "hyphen": ("IBAN: ", _group(i, "-"), "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    port = r.randint(1024, 65000)
    form = r.choice(["srcds_log", "radclient", "diameter", "condor_sinful", "nfdump", "ss_tnp", "smpp_bind", "forwarded",
                     "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    if form == "carrier":
        _carry(r, doc, "client ip", ip, "ipv4", "carrier")
        return
    hh = lambda: "%02d:%02d:%02d" % (r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))
    if form == "radclient":
        # The shared secret on radclient's command line is one too.
        parts = ["$ echo \"User-Name = crew%d, Acct-Status-Type = Start, Framed-IP-Address = " % r.randint(1, 99), (ip, "ipv4"),
                 "\" | radclient -x ", (ip2, "ipv4"), ":1813 acct ", (_tok(r, r.randint(12, 20)), "api_key"), "\n"]
        _seq(doc, form, parts)
        return
    parts = {
        "srcds_log": ["L 12/07/2026 - %s: \"%s<%d><" % (hh(), r.choice(["moana", "ilse", "noor"]), r.randint(2, 64)), ("[U:1:%d]" % r.randint(10 ** 6, 10 ** 9), "look:steam_id3"),
                      "><>\" connected, address \"", (ip, "ipv4"), ":%d\"\n" % port],
        "diameter": ["    AVP: Origin-Host(264) l=28 f=-M- val=pcrf01.example.phone\n    AVP: Host-IP-Address(257) l=14 f=-M- val=", (ip, "ipv4"), "\n"],
        # HTCondor's sinful string writes the address, then again in `addrs` with a dash before the port.
        "condor_sinful": ["MyAddress = \"<", (ip, "ipv4"), ":9618?addrs=", (ip, "ipv4"), "-9618&alias=ap%d.example.science&noUDP&sock=schedd_%d_%s>\"\n" % (
            r.randint(1, 40), r.randint(1000, 99999), _hx(r, 4))],
        "nfdump": ["2026-12-07 %s.%03d     0.000 TCP   " % (hh(), r.randint(0, 999)), (ip, "ipv4"), ":%d ->  " % port, (ip2, "ipv4"), ":443        1       60     1\n"],
        "ss_tnp": ["ESTAB 0      0      ", (ip, "ipv4"), ":27015   ", (ip2, "ipv4"), ":%d  users:((\"srcds_linux\",pid=%d,fd=%d))\n" % (port, r.randint(100, 99999), r.randint(3, 99))],
        "smpp_bind": ["%s INFO  [smsc] bind_transceiver system_id=crewsms from " % hh(), (ip, "ipv4"), ":%d accepted\n" % port],
        "forwarded": ["Forwarded: for=", (ip, "ipv4"), ";proto=https;by=\"_gw%d\"\n" % r.randint(1, 9)],
    }[form]
    _seq2(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    g = lambda: "%x" % r.randint(1, 0xffff)
    form = r.choice(["condor_sinful", "radclient", "diameter", "nfdump", "ss_tnp", "ip_neigh", "forwarded", "srcds_log",
                     "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    if form == "carrier":
        _carry(r, doc, "client ip", ip, "ipv6", "carrier")
        return
    port = r.randint(1024, 65000)
    mac = ":".join("%02x" % r.randint(0, 255) for _ in range(6))
    parts = {
        "condor_sinful": ["MyAddress = \"<[", (ip, "ipv6"), "]:9618?addrs=[", (ip, "ipv6"), "]-9618&alias=ap%d.example.science&noUDP>\"\n" % r.randint(1, 40)],
        "radclient": ["$ echo \"User-Name = crew%d, Framed-IPv6-Address = " % r.randint(1, 99), (ip, "ipv6"), "\" | radclient -x [", (ip2, "ipv6"),
                      "]:1813 acct ", (_tok(r, r.randint(12, 20)), "api_key"), "\n"],
        "diameter": ["    AVP: Host-IP-Address(257) l=26 f=-M- val=", (ip, "ipv6"), "\n"],
        "nfdump": ["2026-12-07 04:%02d:%02d.%03d     0.000 UDP   " % (r.randint(0, 59), r.randint(0, 59), r.randint(0, 999)), (ip, "ipv6"), ".%d ->  " % port,
                   (ip2, "ipv6"), ".53        1       72     1\n"],
        "ss_tnp": ["ESTAB 0      0      [", (ip, "ipv6"), "]:22   [", (ip2, "ipv6"), "]:%d  users:((\"sshd\",pid=%d,fd=4))\n" % (port, r.randint(100, 99999))],
        "ip_neigh": ["$ ip -6 neigh\n", ("fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6"), " dev eth0 lladdr ", (mac, "look:mac_lladdr"), " router REACHABLE\n",
                     (ip, "ipv6"), " dev eth0 lladdr ", (":".join("%02x" % r.randint(0, 255) for _ in range(6)), "look:mac_lladdr"), " STALE\n"],
        "forwarded": ["Forwarded: for=\"[", (ip, "ipv6"), "]:%d\";proto=https\n" % port],
        "srcds_log": ["L 12/07/2026 - 04:%02d:%02d: \"noor<%d><" % (r.randint(0, 59), r.randint(0, 59), r.randint(2, 64)), ("[U:1:%d]" % r.randint(10 ** 6, 10 ** 9), "look:steam_id3"),
                      "><>\" connected, address \"[", (ip, "ipv6"), "]:%d\"\n" % port],
    }[form]
    _seq2(doc, form, parts)


def i_private_key(r, doc, m):
    form = r.choice(["ignition_data_url", "form_urlencoded", "dotnet_json", "hjson_block", "json5_continued", "podman_secret",
                     "sv_string", "spss_string", "codemagic_p12", "terragrunt_heredoc", "zuul_plain", "prose"])
    if form == "codemagic_p12":
        # A signing bundle (certificate and key), base64 in a CI variable.
        # Codemagic's `Encrypted(...)` value is ciphertext.
        _seq2(doc, form, ["      vars:\n        CM_CERTIFICATE: ", (base64.b64encode(_p12_der(r)).decode(), "private_key"), "\n        CM_CERTIFICATE_PASSWORD: ",
                          ("Encrypted(%s)" % _b64(_rb(r, 30)), "look:codemagic_encrypted"), "\n"])
        return
    pem, label = _pem(r)
    lines = pem.split("\n")
    if form == "ignition_data_url":
        # Ignition takes a file's contents as a data URL: the PEM percent-encoded.
        v = urllib.parse.quote(pem + "\n", safe="")
        v = v[:-3]
        lead = "{\"path\": \"/etc/pki/tls/private/gate.key\", \"mode\": 384, \"contents\": {\"source\": \"data:,"
        tail = "%0A\"}}\n"
    elif form == "form_urlencoded":
        v = urllib.parse.quote_plus(pem)
        lead = "POST /api/v1/certificates HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nname=gate&cert_id=%d&private_key=" % r.randint(1, 9999)
        tail = "&passphrase=\n"
    elif form == "dotnet_json":
        # System.Text.Json escapes a plus sign by default.
        v = pem.replace("\n", "\\n").replace("+", "\\u002B")
        lead, tail = "{\"Kestrel\":{\"Certificates\":{\"Default\":{\"KeyPem\":\"", "\"}}}}\n"
    elif form == "hjson_block":
        v = "\n    ".join(lines)
        lead, tail = "{\n  tls: {\n    key:\n    '''\n    ", "\n    '''\n  }\n}\n"
    elif form == "json5_continued":
        # JSON5 lets a string go on after a backslash at the end of a line.
        v = "\\n\\\n".join(lines)
        lead, tail = "{\n  signingKey: '", "',\n}\n"
    elif form == "podman_secret":
        v = pem
        lead, tail = "$ printf '%s\\n' '", "' | podman secret create gate-key -\n"
    elif form == "sv_string":
        v = "\\n".join(lines)
        lead, tail = "  localparam string TEST_KEY = \"", "\";\n"
    elif form == "spss_string":
        v = pem
        lead, tail = "STRING key (A2048).\nCOMPUTE key = '", "'.\n"
    elif form == "terragrunt_heredoc":
        v = pem
        lead, tail = "inputs = {\n  tls_private_key = <<-EOK\n", "\n  EOK\n}\n"
    elif form == "zuul_plain":
        v = "\n        ".join(lines)
        lead, tail = "- secret:\n    name: site-gate\n    data:\n      key: |\n        ", "\n"
    else:
        lang = r.choice(sorted(PROSE))
        p_lead, p_tail = PROSE[lang].split("{}")
        lead, v, tail = p_lead + "key:\n", pem, "\n" + p_tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, label), tail)


def _provider(r):
    """A provider token no family wrote, in its own place: (name, parts) where
    a part is text, or (value, class), or (value, "look:kind")."""
    name = r.choice(["yandex_api_key", "yandex_iam", "langsmith_sk", "ory_pat", "gitlab_oauth_secret", "gitlab_incoming_mail",
                     "gitlab_agent", "gitlab_ff_client", "anthropic_oauth", "anthropic_session", "stripe_rk_test", "jfrog_reference",
                     "jfrog_api_key", "slack_refresh", "slack_workspace", "riot", "paddle_sandbox", "clojars", "bitbucket_dc",
                     "lwa_access", "lwa_refresh", "lwa_client_secret", "square_oauth", "shopify_custom", "linear_oauth", "zoho_oauth",
                     "webex", "hcaptcha", "alpaca", "binance", "kraken", "shodan", "virustotal", "abuseipdb", "urlscan", "maxmind",
                     "line", "hcloud", "servicebus_sas", "questdb", "srcds_rcon", "langfuse"])
    if name == "hcaptcha":
        # The site key is public; the secret is one.
        return name, ["HCAPTCHA_SITEKEY=", (_uuid(r), "look:hcaptcha_sitekey"), "\nHCAPTCHA_SECRET=", ("0x" + _hx(r, 40, upper=r.random() < 0.5), "api_key"), "\n"]
    if name == "alpaca":
        # Labeled as the corpus labels an AWS access key id.
        return name, ["APCA_API_KEY_ID=", (r.choice(["PK", "AK"]) + _s(r, UP + D, 18), "api_key"), "\nAPCA_API_SECRET_KEY=", (_tok(r, 40), "api_key"), "\n"]
    if name == "square_oauth":
        return name, ["square:\n  application_id: ", ("sq0idp-" + _s(r, AN + "-_", 22), "look:square_application_id"), "\n  access_token: ",
                      ("sq0atp-" + _s(r, AN + "-_", 22), "api_key"), "\n"]
    if name == "langfuse":
        return name, ["LANGFUSE_PUBLIC_KEY=", ("pk-lf-" + _uuid(r), "look:langfuse_public_key"), "\nLANGFUSE_SECRET_KEY=", ("sk-lf-" + _uuid(r), "api_key"), "\n"]
    if name == "servicebus_sas":
        # The signature is the secret; the resource, expiry and key name are not.
        sig = urllib.parse.quote(base64.b64encode(_rb(r, 32)).decode(), safe="")
        return name, ["Authorization: SharedAccessSignature sr=https%%3A%%2F%%2Fcrew-%s.servicebus.windows.net%%2Fpnr&sig=" % _s(r, LOWD, 6), (sig, "api_key"),
                      "&se=%d&skn=RootManageSharedAccessKey\n" % r.randint(1_760_000_000, 1_790_000_000)]
    if name == "questdb":
        return name, ["QDB_CLIENT_CONF=\"http::addr=questdb.example.science:9000;username=admin;password=", (_pw(r).replace(";", ""), "api_key"), ";\"\n"]
    if name == "srcds_rcon":
        return name, ["// server.cfg\nhostname \"Crew Night Ops\"\nrcon_password \"", (_pw(r), "api_key"), "\"\nsv_password \"", (_tok(r, 10), "api_key"), "\"\n"]
    if name == "hcloud":
        return name, ["[[contexts]]\n  name = \"crew\"\n  token = \"", (_s(r, AN, 64), "api_key"), "\"\n"]
    if name == "lwa_client_secret":
        return name, ["LWA_CLIENT_ID=", ("amzn1.application-oa2-client." + _hx(r, 32), "look:lwa_client_id"), "\nLWA_CLIENT_SECRET=",
                      ("amzn1.oa2-cs.v1." + _hx(r, 64), "api_key"), "\n"]
    lead, tok, tail = {
        "yandex_api_key": ("YC_API_KEY=", "AQVN" + _s(r, AN + "_-", 36), "\n"),
        "yandex_iam": ("curl -H \"Authorization: Bearer ", "t1.9euelZ" + _s(r, AN + "_-", 150) + "." + _s(r, AN + "_-", 86), "\" https://llm.api.example.cloud/foundationModels/v1/completion\n"),
        "langsmith_sk": ("LANGSMITH_API_KEY=", "lsv2_sk_" + _hx(r, 32) + "_" + _hx(r, 10), "\n"),
        "ory_pat": ("ORY_PROJECT_API_KEY=", "ory_pat_" + _s(r, AN, 32), "\n"),
        "gitlab_oauth_secret": ("gitlab_rails['omniauth_providers'] = [{ name: 'crew', app_secret: '", "gloas-" + _hx(r, 64), "' }]\n"),
        "gitlab_incoming_mail": ("incoming_email:\n  address: \"incoming+%{key}@example.engineering\"\n  password: \"", "glimt-" + _s(r, AN + "_-", 25), "\"\n"),
        "gitlab_agent": ("helm upgrade --install crew gitlab/gitlab-agent --set config.token=", "glagent-" + _s(r, AN + "_-", 50), " --set config.kasAddress=wss://kas.example.engineering\n"),
        "gitlab_ff_client": ("UNLEASH_INSTANCE_ID=", "glffct-" + _s(r, AN + "_-", 20), "\n"),
        "anthropic_oauth": ("CLAUDE_CODE_OAUTH_TOKEN=", "sk-ant-oat01-" + _s(r, AN + "_-", 93) + "AA", "\n"),
        "anthropic_session": ("Cookie: sessionKey=", "sk-ant-sid01-" + _s(r, AN + "_-", 93) + "AA", "; lastActiveOrg=%s\n" % _uuid(r)),
        "stripe_rk_test": ("STRIPE_RESTRICTED_KEY=", "rk_test_51" + _s(r, AN, 97), "\n"),
        "jfrog_reference": ("curl -H \"Authorization: Bearer ", "cmVmdGtuOjAxOj" + _s(r, AN, 50), "\" https://crew.jfrog.example.io/artifactory/api/repositories\n"),
        "jfrog_api_key": ("curl -H \"X-JFrog-Art-Api: ", "AKCp8" + _s(r, AN, 68), "\" -T reduce.tar.gz https://crew.jfrog.example.io/artifactory/generic-local/\n"),
        "slack_refresh": ("SLACK_REFRESH_TOKEN=", "xoxe-1-" + _s(r, AN, 140), "\n"),
        "slack_workspace": ("SLACK_WORKSPACE_TOKEN=", "xoxa-2-%s-%s-%s-%s" % (_d(r, 12), _d(r, 12), _d(r, 13), _hx(r, 64)), "\n"),
        "riot": ("X-Riot-Token: ", "RGAPI-" + _uuid(r), "\n"),
        "paddle_sandbox": ("PADDLE_API_KEY=", "pdl_sdbx_apikey_01" + _s(r, "0123456789abcdefghjkmnpqrstvwxyz", 24) + "_" + _s(r, AN, 27), "\n"),
        "clojars": ("export CLOJARS_PASSWORD=", "CLOJARS_" + _hx(r, 60), "\n"),
        "bitbucket_dc": ("git -c http.extraHeader=\"Authorization: Bearer ", "BBDC-" + _s(r, AN + "+/", 44), "\" clone https://bitbucket.example.engineering/scm/crew/reduce.git\n"),
        "lwa_access": ("x-amz-access-token: ", "Atza|" + _s(r, AN + "-_", 300), "\n"),
        "lwa_refresh": ("\"refresh_token\": \"", "Atzr|" + _s(r, AN + "-_", 300), "\",\n"),
        "shopify_custom": ("X-Shopify-Access-Token: ", "shpca_" + _hx(r, 32), "\n"),
        "linear_oauth": ("LINEAR_OAUTH_TOKEN=", "lin_oauth_" + _hx(r, 64), "\n"),
        "zoho_oauth": ("Authorization: Zoho-oauthtoken ", "1000." + _hx(r, 32) + "." + _hx(r, 32), "\n"),
        "webex": ("WEBEX_ACCESS_TOKEN=", _s(r, AN, 64) + "_PF84_" + _uuid(r), "\n"),
        "binance": ("X-MBX-APIKEY: ", _s(r, AN, 64), "\n"),
        "kraken": ("KRAKEN_PRIVATE_KEY=", base64.b64encode(_rb(r, 64)).decode(), "\n"),
        "shodan": ("shodan init ", _s(r, AN, 32), "\n"),
        "virustotal": ("curl -H \"x-apikey: ", _hx(r, 64), "\" https://www.example.com/api/v3/files/%s\n" % _hx(r, 64)),
        "abuseipdb": ("curl -G https://api.example.com/api/v2/check -H \"Key: ", _hx(r, 80), "\" -H \"Accept: application/json\"\n"),
        "urlscan": ("curl -H \"API-Key: ", _uuid(r), "\" -d '{\"url\": \"https://pnr.example.flights\"}' https://urlscan.example.io/api/v1/scan/\n"),
        "maxmind": ("AccountID %d\nLicenseKey " % r.randint(100000, 1999999), _s(r, AN, 6) + "_" + _s(r, AN, 29) + "_mmk", "\nEditionIDs GeoLite2-City\n"),
        "line": ("LINE_CHANNEL_ACCESS_TOKEN=", _s(r, AN + "+/", 171) + "=", "\n"),
    }[name]
    if name in ("virustotal",):
        # The file hash in the URL is public.
        h = tail.split("/files/")[1].strip()
        return name, [lead, (tok, "api_key"), tail.split(h)[0], (h, "look:sha256_file_hash"), "\n"]
    return name, [lead, (tok, "api_key"), tail]


def i_api_key(r, doc, m):
    pw = _pw(r)
    form = r.choice(["bitrise_secret", "codemagic_var", "appveyor_env", "cirrus_env", "semaphore_secret", "zuul_var", "dagger_secret",
                     "terragrunt_inputs", "atlantis_env", "autoyast_root", "ignition_passwd", "htcondor_token", "snakemake_config",
                     "ucl_password", "hjson_password", "kcl_password", "earthfile_arg", "quadlet_env", "smpp_bind", "acars_unlock",
                     "provider", "provider", "provider", "provider", "provider", "provider", "provider", "prose"])
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
    lead, v, tail = {
        "bitrise_secret": ("$ bitrise :secrets add --key DEPLOY_TOKEN --value ", _tok(r, 40), " --protected\n"),
        "codemagic_var": ("      vars:\n        APP_STORE_CONNECT_KEY_IDENTIFIER: %s\n        APP_STORE_CONNECT_API_TOKEN: " % _s(r, UP + D, 10), _tok(r, 48), "\n"),
        "appveyor_env": ("environment:\n  DEPLOY_PASSWORD: ", pw, "\n"),
        "cirrus_env": ("task:\n  env:\n    REGISTRY_PASSWORD: ", pw, "\n"),
        "semaphore_secret": ("$ sem create secret crew-registry -e REGISTRY_PASSWORD=", pw, "\n"),
        "zuul_var": ("- job:\n    name: publish\n    vars:\n      upload_password: \"", pw, "\"\n"),
        "dagger_secret": ("\tpw := dag.SetSecret(\"registry-pw\", \"", pw, "\")\n"),
        "terragrunt_inputs": ("inputs = {\n  db_password = \"", pw, "\"\n}\n"),
        "atlantis_env": ("      - env:\n          name: TF_VAR_db_password\n          value: ", pw, "\n"),
        "autoyast_root": ("<user>\n  <username>root</username>\n  <user_password>", pw, "</user_password>\n  <encrypted config:type=\"boolean\">false</encrypted>\n</user>\n"),
        "ignition_passwd": ("{\"passwd\": {\"users\": [{\"name\": \"core\", \"sshAuthorizedKeys\": [], \"passwordHash\": null}]}, \"storage\": {\"files\": [{\"path\": \"/etc/crew/token\", \"contents\": {\"inline\": \"",
                            _tok(r, 40), "\"}}]}}\n"),
        "htcondor_token": ("$ condor_token_create -identity crew@example.science -lifetime 86400\n", _jwt(r, alg="HS256"), "\n"),
        "snakemake_config": ("irods:\n  user: crew\n  password: \"", pw, "\"\n"),
        "ucl_password": ("repository {\n  url = \"https://pkg.example.science/FreeBSD:14:amd64\";\n  password = \"", pw, "\";\n}\n"),
        "hjson_password": ("{\n  db: {\n    user: crew\n    password: ", pw.replace("#", ""), "\n  }\n}\n"),
        "kcl_password": ("database = {\n    user = \"crew\"\n    password = \"", pw, "\"\n}\n"),
        "earthfile_arg": ("build:\n    ARG --required REGISTRY_TOKEN=", _tok(r, 36), "\n    RUN --push ./publish.sh\n"),
        "quadlet_env": ("[Container]\nImage=registry.example.science/gate:latest\nEnvironment=POSTGRES_PASSWORD=", pw.replace("%", ""), "\n"),
        "smpp_bind": ("bind_transceiver: system_id=crewsms password=", _tok(r, 8), " system_type=\"\" interface_version=0x34\n"),
        "acars_unlock": ("- FTX MAINT PORTAL PASSWORD ", _tok(r, 12).upper() + _d(r, 2), "\n"),
    }[form]
    if form == "htcondor_token":
        # An HTCondor IDTOKEN is a JWT; the identity it names is an email.
        _seq(doc, form, ["$ condor_token_create -identity ", ("crew@example.science", "email"), " -lifetime 86400\n", (v, "jwt"), tail])
        return
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["wsse_binary", "token_exchange", "jwt_bearer_grant", "mqtt_connect", "apple_client_secret", "smart_launch",
                     "pomerium", "oauth2_proxy", "authentik", "motherduck", "k8s_sa_secret", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, _jwt(r), "jwt", "prose", "token")
        return
    if form == "carrier":
        _carry(r, doc, "session token", _jwt(r), "jwt", "carrier")
        return
    if form == "k8s_sa_secret":
        # `kubectl get secret -o yaml` shows the service account token base64-encoded once more.
        tok = _jwt(r, alg="RS256", typ=None, body={"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "crew",
                                                   "kubernetes.io/serviceaccount/secret.name": "reduce-token", "sub": "system:serviceaccount:crew:reduce"})
        ns = base64.b64encode(b"crew").decode()
        _put(doc, "apiVersion: v1\ndata:\n  namespace: %s\n  token: " % ns, base64.b64encode(tok.encode()).decode(), "jwt", form,
             "\nkind: Secret\ntype: kubernetes.io/service-account-token\n")
        return
    if form == "apple_client_secret":
        iat = r.randint(1_760_000_000, 1_790_000_000)
        tok = _jwt(r, alg="ES256", typ=None, body={"iss": _s(r, UP + D, 10), "iat": iat, "exp": iat + 15552000, "aud": "https://appleid.apple.com",
                                                   "sub": "flights.example.crew"})
        _put(doc, "POST /auth/token\ngrant_type=refresh_token&client_id=flights.example.crew&client_secret=", tok, "jwt", form, "\n")
        return
    if form == "mqtt_connect":
        _put(doc, "MQTT CONNECT: client_id=\"projects/crew/locations/eu/registries/gates/devices/gate-%d\" username=\"unused\" password=\"" % r.randint(1, 99),
             _jwt(r, alg="ES256", typ=None), "jwt", form, "\" keepalive=60\n")
        return
    lead, tail = {
        "wsse_binary": ("<wsse:Security>\n  <wsse:BinarySecurityToken ValueType=\"urn:ietf:params:oauth:token-type:jwt\" EncodingType=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary\">",
                        "</wsse:BinarySecurityToken>\n</wsse:Security>\n"),
        "token_exchange": ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Ajwt&subject_token=",
                           "&audience=pnr-gateway\n"),
        "jwt_bearer_grant": ("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=", "&scope=loan.read\n"),
        "smart_launch": ("{\"access_token\": \"%s\", \"token_type\": \"Bearer\", \"patient\": \"%s\", \"id_token\": \"" % (_s(r, AN, 32), _s(r, LOWD, 10)), "\", \"scope\": \"launch/patient openid fhirUser\"}\n"),
        "pomerium": ("X-Pomerium-Jwt-Assertion: ", "\n"),
        "oauth2_proxy": (r.choice(["X-Forwarded-Access-Token: ", "X-Auth-Request-Access-Token: "]), "\n"),
        "authentik": ("X-authentik-jwt: ", "\nX-authentik-username: crew\n"),
        "motherduck": ("con = duckdb.connect(\"md:crew_loans?motherduck_token=", "\")\n"),
    }[form]
    if form == "smart_launch":
        # The opaque access token beside the id token is a secret too.
        at = lead.split("\"access_token\": \"")[1].split("\"")[0]
        head, rest = lead.split(at, 1)
        doc.t(head)
        doc.item(at, "api_key", "t_smart_launch_access")
        doc.t(rest)
        doc.item(_jwt(r, alg="RS256"), "jwt", "t_" + form)
        doc.t(tail)
        return
    _put(doc, lead, _jwt(r), "jwt", form, tail)


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["bolt", "rtsps", "webdavs", "ipps", "sips", "starrocks", "firebolt", "mariadb", "kingbase", "opengauss", "tidb",
                     "yugabyte", "loki", "sybase", "informix", "bolt_v6", "json_slashes", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "rtsps://viewer:", pw, "url_credentials", "prose_" + lang, "@cam07.example.science:7441/live " + tail + "\n")
        return
    if form == "bolt_v6":
        # A literal IPv6 host is an address too.
        _seq(doc, form, ["MEMGRAPH_URI=bolt+s://crew:", (pw, "url_credentials"), "@[", (_v6(r), "ipv6"), "]:7687\n"])
        return
    if form == "loki":
        # Grafana Cloud pushes with the numeric user and an access policy token as the password.
        _put(doc, "    url: https://%d:" % r.randint(100000, 1999999), "glc_" + base64.b64encode(json.dumps({"o": str(r.randint(100000, 1999999)), "n": "crew-logs",
                                                                                                   "k": _s(r, AN, 24), "m": {"r": "prod-eu-west-2"}}, separators=(",", ":")).encode()).decode().rstrip("="),
             "url_credentials", form, "@logs-prod-012.grafana.example.net/loki/api/v1/push\n")
        return
    if form == "firebolt":
        # Firebolt's user is an email, percent-encoded in the URL.
        _seq(doc, form, ["engine = create_engine(\"firebolt://", ("crew%40example.science", "email"), ":", (pw, "url_credentials"), "@loans/loans_engine\")\n"])
        return
    if form == "json_slashes":
        # PHP's json_encode escapes each slash.
        _put(doc, "{\"dsn\":\"mysql:\\/\\/crew:", pw, "url_credentials", form, "@db.example.mortgage:3306\\/loans\"}\n")
        return
    lead, tail = {
        "bolt": ("driver = GraphDatabase.driver(\"bolt+s://crew:", "@memgraph.example.science:7687\")\n"),
        "rtsps": ("ffmpeg -rtsp_transport tcp -i \"rtsps://viewer:", "@cam07.example.science:7441/%s?enableSrtp\" -c copy gate.mp4\n" % _s(r, AN, 16)),
        "webdavs": ("kioclient5 ls 'webdavs://crew:", "@dav.example.pub/remote.php/dav/files/crew/'\n"),
        "ipps": ("lpadmin -p gate07 -E -v ipps://print:", "@printer.example.flights:443/ipp/print -m everywhere\n"),
        "sips": ("Contact: <sips:crew7:", "@sbc.example.phone:5061;transport=tls>\n"),
        "starrocks": ("engine = create_engine(\"starrocks://root:", "@fe.example.science:9030/default_catalog.loans\")\n"),
        "mariadb": ("engine = create_engine(\"mariadb+mariadbconnector://crew:", "@mariadb.example.mortgage:3306/loans\")\n"),
        "kingbase": ("engine = create_engine(\"kingbase://system:", "@kes.example.cloud:54321/test\")\n"),
        "opengauss": ("engine = create_engine(\"opengauss+psycopg2://gaussdb:", "@og.example.cloud:5432/postgres\")\n"),
        "tidb": ("DATABASE_URL=mysql://%s.root:" % _s(r, AN, 15), "@gateway01.eu-central-1.prod.aws.tidbcloud.example.com:4000/test?ssl-mode=VERIFY_IDENTITY\n"),
        "yugabyte": ("DATABASE_URL=postgresql://admin:", "@eu-west-1.%s.aws.ybdb.example.io:5433/yugabyte?ssl=true&sslmode=verify-full\n" % _uuid(r)),
        "sybase": ("engine = create_engine(\"sybase+pyodbc://sa:", "@crew_dsn\")\n"),
        "informix": ("conn = IfxPy.connect(\"informix://informix:", "@ifx.example.mortgage:9088/loans;SERVER=ol_crew\")\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _orcid(r):
    """An ORCID iD: fifteen digits and an ISO 7064 mod 11-2 check character."""
    b = "0000000%d%07d" % (r.randint(1, 3), r.randint(0, 9999999))
    total = 0
    for c in b:
        total = (total + int(c)) * 2
    c = (12 - total % 11) % 11
    v = b + ("X" if c == 10 else str(c))
    return "-".join(v[k:k + 4] for k in range(0, 16, 4))


def _fints_len(r):
    """A FinTS message length (twelve digits, zero-padded) that no card check passes."""
    while True:
        n = r.randint(200, 9999)
        if not _luhn_ok("%012d" % n):
            return n


def _b64(raw):
    return base64.b64encode(raw).decode()


def i_look(r, doc, m):
    q = r.randint
    hx = lambda n: _hx(r, n)
    kind = r.choice([
        # Secret references and ciphertext.
        "op_reference", "cirrus_encrypted", "zuul_encrypted",
        # Public ids beside secrets.
        "aws_unique_id", "stripe_subscription", "stripe_setup_intent", "bootstrap_token_name",
        # Air travel.
        "record_locator", "ticket_number", "bcbp", "metar", "notam", "icao24",
        # Telecom.
        "smpp_message_id", "diameter_session_id",
        # Astronomy, HPC and publishing.
        "fits_ra_dec", "fits_mjd", "condor_job", "slurm_nodelist", "doi", "orcid", "arxiv", "isni", "onix_record",
        # Mortgage, banking and games.
        "mismo_loan_id", "mers_min", "bic", "fints_dialog", "gift_card_bad", "part_no_ssn_shape", "steam_id64", "srcds_build",
        # Hashes and encoded non-secrets.
        "ignition_hash", "go_sum", "tf_lock", "sri", "csp_nonce", "ws_key", "relay_id",
        # At signs that are no email.
        "npm_scoped", "docker_digest", "go_module_at", "krb_service", "shell_prompt",
        # Dotted and coloned numbers, places.
        "clause", "xrandr", "h3_cell", "plus_code", "geohash", "codepoint",
    ])
    if kind == "zuul_encrypted":
        doc.t("- secret:\n    name: registry\n    data:\n      password: !encrypted/pkcs1-oaep\n        - ")
        body = _b64(_rb(r, 512))
        _look(r, doc, lambda: "\n          ".join(body[k:k + 60] for k in range(0, len(body), 60)), kind)
        doc.t("\n")
        return
    lead, make, tail = {
        "op_reference": (r.choice(["DB_PASSWORD=", "api_key: ", "REGISTRY_TOKEN=\""]), lambda: "op://%s/%s/%s" % (r.choice(["Crew", "Loans", "HPC"]), r.choice(["loan-db", "registry", "rcon"]),
                                                                                                          r.choice(["password", "credential", "token"])), "\n"),
        "cirrus_encrypted": ("    REGISTRY_PASSWORD: ", lambda: "ENCRYPTED[" + hx(96) + "]", "\n"),
        "aws_unique_id": (r.choice(["\"GroupId\": \"", "\"InstanceProfileId\": \"", "\"PolicyId\": \"", "\"ServerCertificateId\": \""]),
                          lambda: r.choice(["AGPA", "AIPA", "ANPA", "ANVA", "ASCA"]) + _s(r, UP + "234567", 17), "\",\n"),
        "stripe_subscription": ("\"subscription\": \"", lambda: "sub_1" + _s(r, AN, 23), "\",\n"),
        "stripe_setup_intent": ("\"setup_intent\": \"", lambda: "seti_1" + _s(r, AN, 23), "\",\n"),
        "bootstrap_token_name": ("  name: ", lambda: "bootstrap-token-" + _s(r, LOWD, 6), "\n  namespace: kube-system\n"),
        "record_locator": ("RP/NCE1A0955/NCE1A0955            AA/SU   7DEC26/0412Z   ", lambda: _s(r, UP + "23456789", 6), "\n"),
        "ticket_number": ("  %d FA PAX " % q(6, 14), lambda: "%03d-%010d" % (r.choice([57, 74, 125, 176, 220, 618]), q(10 ** 9, 10 ** 10 - 1)), "/ETAF/EUR%d.%02d/07DEC26/NCE1A0955\n" % (q(80, 2000), q(0, 99))),
        "bcbp": ("BCBP: ", lambda: "M1%-20sE%s %s%s%s %04d %03dY%03d%s%04d %d00" % (r.choice(["ADEBAYO/NOOR", "TUILAGI/MOANA", "KOROSTELEV/ILSE"]), _s(r, UP + "23456789", 6),
                                                                               r.choice(["NCE", "CDG", "HEL"]), r.choice(["FRA", "AMS", "DOH"]), r.choice(["AF ", "LH ", "QR "]),
                                                                               q(1, 9999), q(1, 366), q(1, 60), r.choice("ACDF"), q(1, 300), q(1, 3)), "\n"),
        "metar": ("", lambda: "METAR %s 07%02d%02dZ %03d%02dKT 9999 FEW0%d0 %02d/%02d Q10%02d NOSIG=" % (r.choice(["LFMN", "EFHK", "NZAA", "PHNL"]), q(0, 23), r.choice([0, 30]),
                                                                                                q(0, 35) * 10, q(2, 25), q(1, 9), q(0, 30), q(0, 15), q(0, 35)), "\n"),
        "notam": ("", lambda: "A%04d/26 NOTAMN\nQ) %s/QMRLC/IV/NBO/A/000/999/%02d%02dN%03d%02dE005" % (q(1, 9999), r.choice(["LFMM", "EFIN", "NZZC"]), q(0, 89), q(0, 59), q(0, 179), q(0, 59)), "\n"),
        "icao24": ("{\"icao24\": \"", lambda: hx(6), "\", \"callsign\": \"AFR%d  \"}\n" % q(10, 9999)),
        "smpp_message_id": ("submit_sm_resp: command_status=0x00000000 message_id=", lambda: r.choice([hx(16), _uuid(r)]), "\n"),
        "diameter_session_id": ("    AVP: Session-Id(263) l=52 f=-M- val=", lambda: "pcrf01.example.phone;%d;%d" % (q(1_760_000_000, 1_790_000_000), q(1, 99999)), "\n"),
        "fits_ra_dec": ("", lambda: "RA      = '%02d:%02d:%02d.%02d'       / right ascension\nDEC     = '%s%02d:%02d:%02d.%d'      / declination" % (
            q(0, 23), q(0, 59), q(0, 59), q(0, 99), r.choice("+-"), q(0, 89), q(0, 59), q(0, 59), q(0, 9)), "\n"),
        "fits_mjd": ("MJD-OBS =  ", lambda: "%d.%07d" % (q(60000, 62000), q(0, 9999999)), " / modified Julian date\n"),
        "condor_job": ("$ condor_q\n ID         OWNER  SUBMITTED     RUN_TIME ST\n ", lambda: "%d.%d" % (q(100000, 9999999), q(0, 99)), "  crew   12/7  04:%02d   0+00:%02d:%02d R\n" % (q(0, 59), q(0, 59), q(0, 59))),
        "slurm_nodelist": ("NodeList=", lambda: "cn[%03d-%03d,%03d]" % (q(1, 100), q(101, 400), q(401, 999)), "\n"),
        "doi": ("https://doi.org/", lambda: r.choice(["10.5281/zenodo.%d" % q(1000000, 17999999), "10.1093/mnras/stae%d" % q(100, 2999), "10.3847/1538-4357/ad%s" % hx(4)]), "\n"),
        "orcid": ("    orcid: \"https://orcid.org/", lambda: _orcid(r), "\"\n"),
        "arxiv": ("arXiv:", lambda: "%02d%02d.%05dv%d" % (q(20, 26), q(1, 12), q(0, 99999), q(1, 4)), "\n"),
        "isni": ("<NameIdentifier><IDTypeName>ISNI</IDTypeName><IDValue>", lambda: "0000000%d%s" % (q(10000000, 49999999), r.choice("0123456789X")), "</IDValue></NameIdentifier>\n"),
        "onix_record": ("<RecordReference>", lambda: "pub.example.press.%s" % _s(r, UP + D, 10), "</RecordReference>\n"),
        "mismo_loan_id": ("<LoanIdentifier>", lambda: "LN-2026-%06d" % q(0, 999999), "</LoanIdentifier>\n"),
        "mers_min": ("<MERS_MIN>", lambda: "%07d-%010d-%d" % (q(1000000, 1999999), q(0, 9999999999), q(0, 9)), "</MERS_MIN>\n"),
        "bic": ("BIC: ", lambda: r.choice(["NDEAFIHH", "RZBAATWW", "HABALT22", "UBSWCHZH80A", "DABADKKK", "ESSESESS"]), "\n"),
        "fints_dialog": ("HNHBK:1:3+", lambda: "%d%s" % (q(10 ** 5, 10 ** 6), _s(r, UP + D, 20)), "+1'\n"),
        "gift_card_bad": ("Gift card ", lambda: " ".join(_d(r, 4) for _ in range(4)), " (PIN on the back)\n"),
        "part_no_ssn_shape": ("Part No. ", lambda: "9%02d-%02d-%04d" % (q(0, 99), q(1, 99), q(1, 9999)), "\n"),
        "steam_id64": ("\"steamid\": \"", lambda: "7656119%010d" % q(0, 9999999999), "\",\n"),
        "srcds_build": ("Version ", lambda: "%d.%d.%d.%d/%d%d %d secure" % (1, q(30, 40), q(0, 9), q(0, 9), q(1, 3), q(1000, 9999), q(8000, 9999)), "\n"),
        "ignition_hash": ("\"verification\": {\"hash\": \"", lambda: "sha512-" + hx(128), "\"}\n"),
        "go_sum": ("golang.org/x/net v0.%d.0 " % q(20, 40), lambda: "h1:" + _b64(_rb(r, 32)), "\n"),
        "tf_lock": ("  hashes = [\n    \"", lambda: r.choice(["h1:" + _b64(_rb(r, 32)), "zh:" + hx(64)]), "\",\n  ]\n"),
        "sri": ("<script src=\"/reduce.js\" integrity=\"", lambda: "sha384-" + _b64(_rb(r, 48)), "\" crossorigin=\"anonymous\"></script>\n"),
        "csp_nonce": ("Content-Security-Policy: script-src 'self' 'nonce-", lambda: _b64(_rb(r, 16)), "'\n"),
        "ws_key": ("Sec-WebSocket-Key: ", lambda: _b64(_rb(r, 16)), "\nSec-WebSocket-Version: 13\n"),
        "relay_id": ("query { node(id: \"", lambda: _b64(("%s:%d" % (r.choice(["Loan", "Flight", "Crew"]), q(1, 999999))).encode()), "\") { id } }\n"),
        "npm_scoped": ("npm i ", lambda: "@%s/%s@%d.%d.%d" % (r.choice(["crew", "loans", "hpc"]), r.choice(["reduce", "pnr", "fits-io"]), q(0, 9), q(0, 30), q(0, 20)), "\n"),
        "docker_digest": ("image: ", lambda: "registry.example.science/reduce@sha256:" + hx(64), "\n"),
        "go_module_at": ("go get ", lambda: "golang.org/x/%s@v0.%d.%d" % (r.choice(["net", "crypto", "sync"]), q(10, 40), q(0, 9)), "\n"),
        "krb_service": ("servicePrincipalName: ", lambda: "HTTP/ap%02d.example.science@EXAMPLE.SCIENCE" % q(1, 40), "\n"),
        "shell_prompt": ("", lambda: "crew@ap%02d:~$" % q(1, 40), " condor_status -af Name\n"),
        "clause": ("See clause ", lambda: "%d.%d.%d.%d" % (q(1, 12), q(1, 9), q(1, 20), q(1, 9)), " of the loan agreement.\n"),
        "xrandr": ("xrandr --output HDMI-1 --mode ", lambda: "%dx%d+%d+%d" % (r.choice([1920, 2560, 3840]), r.choice([1080, 1440, 2160]), r.choice([0, 1920]), 0), "\n"),
        "h3_cell": ("\"h3\": \"", lambda: "8%s%s" % (r.choice("9a"), hx(9)) + "ffff", "\",\n"),
        "plus_code": ("Gate: ", lambda: "%s%s+%s" % (_s(r, "23456789CFGHJMPQRVWX", 4), _s(r, "23456789CFGHJMPQRVWX", 4), _s(r, "23456789CFGHJMPQRVWX", 2)), "\n"),
        "geohash": ("geohash=", lambda: _s(r, "0123456789bcdefghjkmnpqrstuvwxyz", 10), "\n"),
        "codepoint": ("", lambda: "U+%04X" % r.choice([0x2708, 0x1F6EB, 0x1F6EC, 0x260E, 0x1F4B3]), " in the font table\n"),
    }[kind]
    if kind == "fints_dialog":
        # The message's length (twelve digits after a plus) is no phone number.
        doc.t(lead)
        doc.look("%012d" % _fints_len(r), "fints_msg_length")
        doc.t("+300+")
        _look(r, doc, make, kind)
        doc.t(tail)
        return
    if kind == "gift_card_bad":
        while True:
            v = make()
            if not _luhn_ok(v.replace(" ", "")) and not _cardish(v):
                break
        doc.t(lead)
        doc.look(v, kind)
        doc.t(tail)
        return
    doc.t(lead)
    _look(r, doc, make, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt, i_private_key, i_url]

FILLERS = ["\n", "\n\n", "END\n", "^\n", "queue\n", "---\n", "99,,/\n", "@bye\n"]


def heldout20_doc(r, doc, m):
    """One text of the twenty-first family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
