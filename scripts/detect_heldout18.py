"""The eighteenth held-out split of the detection-quality corpus (issue 36).

Used by `detect_corpus.py --split heldout18`; not run on its own.

A nineteenth template family, written and committed before any detector
change of the round that tunes on heldout17, from real-world formats and
not from the detectors' code: the session that wrote it did not read the
detectors (`crates/tracegate/src/redact`, `finding*`), their
documentation, the detection sections of benches/README.md or any
split's report or spans; it read `detect_corpus.py` and
`detect_score.py` for the interface and grepped the seventeen earlier
families only for surroundings and value shapes to keep clear of. Only
its summary and per-class table are looked at until the round's final
measurement.

Surroundings that no other family writes, most from self-hosted and
homelab services, template engines, query languages, diagrams and
subtitles, observability agents, HPC schedulers, game servers, IoT
network servers and notification URLs: Twig, Blade, ERB, Handlebars,
Liquid, Haml and Svelte templates; KQL, SPL, Cypher, SPARQL, Flux, LogQL
and jq queries; Mermaid, PlantUML and Graphviz DOT; ASS and TTML
subtitles; InfluxDB line protocol, the OpenTelemetry collector's debug
exporter, Node-RED debug lines; Slurm `scontrol`/`#SBATCH`, PBS `#PBS
-M`, `slurmdbd.conf`, Nextflow `params` and `secrets`; R `DESCRIPTION`
(`Authors@R`, `Maintainer`), Julia `Project.toml`, Elixir `mix.exs`, GCP
IAM bindings, `openssl x509 -text` SANs, `List-Unsubscribe` and
`Disposition-Notification-To` headers, Gitea `app.ini`, Synapse
`homeserver.yaml` and signing keys, Authelia, Sonarr/Radarr `config.xml`,
Transmission, Node-RED `flows_cred.json`, Nextcloud `config.php`,
Paperless-ngx, Mastodon `.env.production`, Vaultwarden, Jellyfin, Plex,
Frigate, Zigbee2MQTT, Mosquitto bridges and logs, Yggdrasil, ZeroTier
identities, Tor `ADD_ONION`, minisign secret keys, `datadog.yaml`,
`newrelic.yml`, OpenTelemetry collector exporters, Source engine
`server.cfg` and `status`, Factorio, TeamSpeak, Valheim, Palworld, ARK,
ChirpStack LoRaWAN devices; Cisco `show ip ospf neighbor`, `show ip bgp
summary`, `show arp`, Windows `tracert`, Pi-hole FTL, AdGuard Home
query logs, Syncthing, Vaultwarden and Gitea logs, MPI hostfiles;
Wireshark display filters, DHCPv6 leases, systemd-networkd, netplan,
Apache `Require ip`, PostgreSQL `inet`, Redis `bind`, RFC 6874 zone
identifiers in URLs; Apprise notification URLs (`ntfy`, `matrix`,
`rocket`, `nctalk`, `json`, `xml`, `mailto` with a password, `signal`),
Symfony Mailer and Notifier DSNs (`ses+smtp`, `gmail+smtp`,
`mailjet+api`, `twilio`, `vonage`, `sinch`), SQLAlchemy dialects
(`awsathena+rest` with an AWS key pair, `singlestoredb`,
`postgresql+pg8000`, `mysql+mysqlconnector`, `ibm_db_sa`, `monetdb`,
`dremio+flight`), `valkey`, `rethinkdb`, `scp` and `dict` URLs; identity
headers of proxies (Google IAP, Cloudflare Access, AWS ALB
`x-amzn-oidc-data` with padded segments, Azure App Service), JAR
`request=`, OpenID4VP `vp_token` SD-JWTs, NATS `.creds` files, Gitea
`INTERNAL_TOKEN`, Home Assistant long-lived tokens, Supabase service
role keys; ISO 20022 `pacs.008`, SWIFT MT101 `:50H:`, Xero, ERPNext,
Qonto and bunq JSON; Authorize.Net, Worldpay, PayU, Mercado Pago and
iyzico card payloads; HL7 C-CDA SSN ids (`2.16.840.1.113883.4.1`), W-9
OCR, SS-5, DD-214, VA file numbers, E-Verify, payroll APIs, Form
4506-C, SF-86; prose in Võro, Livvi-Karelian, Komi, Meadow Mari, Erzya,
Kalmyk, Buryat, Tuvan, Avar, Kabardian, Adyghe, Abkhaz, Gagauz,
Latgalian, Samogitian, Inari Sami, Lombard, Emilian, Extremaduran,
Leonese, Aranese, Saterland Frisian, West Flemish, Okinawan, Ainu,
Teochew, Minangkabau, Acehnese, Waray, Hiligaynon, Kapampangan, Mizo,
Khasi, Shan, S'gaw Karen, Vai (Vai script), Afar, Kanuri, Mooré,
Bambara, Tshiluba, Sango, Dholuo, Maasai, Venda, siSwati, Southern
Ndebele, Herero, Oshiwambo, Khoekhoe, Krio, Nigerian Pidgin,
Kabuverdianu, Yucatec Maya, K'iche', Zapotec, Otomi, Wayuu, Miskito,
Garifuna, Ojibwe, Lakota, Mohawk, Mi'kmaq, Cook Islands Māori, Niuean,
Gilbertese, Marshallese, Palauan, Hiri Motu, Rapa Nui, Pijin, Kriol,
Warlpiri and Osage (Osage script) (short phrases written by the session,
only roughly idiomatic, in several languages and scripts only
approximations).

Values in shapes the earlier families did not write as such a set:
cards of ArCa, Elcart, Korti Milli, Hiper, Aura, 12- and 13-digit
Maestro, 17- and 18-digit UnionPay and 19-digit Discover, written in
Arabic-Indic, Persian, Devanagari, Bengali and Thai digits, grouped by
em and figure dashes, minus signs, hair, punctuation, six-per-em and
medium mathematical spaces, middle dots, katakana middle dots,
full-width hyphen-minus or zero-width spaces, or one `<span>` a group;
phones of Kosovo, St Helena, Ascension, Niue, Diego Garcia, Åland,
Jersey, Guernsey, the Isle of Man, the Cayman Islands, Puerto Rico,
Trinidad, Barbados and Jamaica, and of the Emirates, Iran, India,
Bangladesh, Thailand and Japan in their own digits (full-width for
Japan), with non-breaking hyphens, in `t.me/+`, `signal.me/#p/+`,
`callto:` and `facetime-audio:` links, and as a Matrix `msisdn` without
its plus (unclaimed); SSNs with non-breaking hyphens, minus signs,
full-width hyphen-minus and OCR spaces around the dashes, spaced after a
VA file word (unclaimed); emails with a full-width at sign (as Japanese
and Chinese pages write them) and in the files above; IBANs grouped by
hyphens; provider tokens no family wrote (dbt Cloud, Cerebras, Shippo,
Yandex OAuth, Akamai EdgeGrid triples, Checkout.com sandbox, Stytch,
MailerSend, Paddle, 1Password service accounts, Bitwarden Secrets
Manager, Honeycomb, Axiom, Adobe, Frame.io, X/Twitter percent-encoded
bearers, Freshdesk `key:X`, Google refresh tokens, FCM server keys,
Ably, PubNub, fal, RunPod, Voyage, Neptune, OpenAI admin keys, AWS
`FwoGZXIvYXdz` session tokens, Convex deploy keys, Inngest, Trigger.dev,
Cloudflare Origin CA keys, The Things Network, Typesense, Meilisearch,
Algolia admin keys, OneSignal, Pusher, ZeroTier Central, LiveKit, Mux,
Azure DevOps PATs, SerpApi, Baseten, Sendbird, Plivo, Paystack); bare
key material after its key (Mastodon VAPID private keys, Yggdrasil and
ZeroTier private halves, Tor `ED25519-V3` keys, Synapse signing seeds,
minisign secret keys, LoRaWAN AppKeys) labeled `api_key` as the
project labels WireGuard and age keys; private keys in armours no family
wrote (NATS `USER NKEY SEED` with six-dash END lines, Nebula `X25519`
and `ED25519` private keys), .NET `<RSAKeyValue>` XML with its private
parameters, the private `d` of an EC or OKP JWK, PKCS#12 bundles in
base64 (Key Vault certificate secrets), PEM quoted-printable (`=3D`
padding), in a shell `$'...'` string, with `<br>` line ends, in a Twig
`{% set %}` block, a KQL `let`, Butane `inline` contents and a Nomad
`template` heredoc; IPv6 of hosting and mobile prefixes and ULAs (also
in `traceroute6` hops and a link-local address with its zone in a URL);
URLs with a password for the schemes above.

Look-alikes no family wrote as such a set: tokens' prefixes in names
(`npm_config_*`/`npm_package_*` variables, `hf_hub_download`, secret
scanning rules, PubNub `pub-c-`/`sub-c-` keys, Expo push tokens, Akamai
`akab-` hosts, Pusher and LiveKit public keys, Algolia app ids,
Cloudflare account ids), public halves beside their private items
(Nebula public keys, NATS public nkeys, Yggdrasil and ZeroTier public
keys, Matrix `verify_keys`, public `<RSAKeyValue>`), WebAuthn payloads
(`clientDataJSON`, `authenticatorData`, signatures, credential ids,
attestation objects), integrity and signature headers
(`Sec-WebSocket-Key`/`Accept`, `Content-Digest`, RFC 9421 `Signature`,
`x-goog-hash`, DKIM `bh=`/`b=`, dig `COOKIE`, DS, TLSA and SSHFP
records), ciphertext and hashes (Jasypt `ENC(...)`, hiera-eyaml
`ENC[PKCS7,...]`, Chef encrypted data bags, Rails `credentials.yml.enc`,
Laravel encrypted values, Kubernetes `k8s:enc:aescbc`, DPAPI blobs,
Mosquitto and AdGuard password hashes, imphashes, BlurHash, Chromaprint,
pHash, Simhash), document and board ids (Google Docs/Sheets/Drive,
Notion, Figma, Miro, Loom, Confluence, Firestore, Vercel, Supabase),
social ids (Bluesky DIDs and TIDs, LinkedIn URNs, TikTok, Instagram,
Reddit, HN), science ids (Gaia DR3, 2MASS, SDSS, TIC, HD, MPC
designations, sexagesimal coordinates, SYNOP groups, NCT, RefSeq,
GenBank, ChEBI, KEGG, Reactome, SNOMED CT, ATC, GS1 element strings),
places (OSGB grid references, Japanese mesh codes, E7 coordinates,
GARS, Gauss-Krüger, Japanese, Polish and Portuguese postcodes),
compliance and legal references (CIS benchmark ids that are four
dotted numbers, ISO 27001 controls, PCI DSS requirements, NIST 800-53,
ECLI, CELEX, U.S.C. and CFR citations, Federal Register, EP and WO
patents, 3GPP and IEC numbers), money and dates in Arabic-Indic,
Persian, Devanagari and Thai digits and Japanese eras, lotto draws, SS7
point codes, sort codes, euro banknote serials, OSI option symbols,
tickers, Go pseudo-versions, Maven snapshots, PEP 440 local versions,
conda builds, RPM NEVRAs, `git describe`, OSV, RHSA, USN and DSA ids, IRC
hostmasks and Perforce revisions. A look-alike any run of whose digits
(solid, or any run of groups split by one space, dash, dot or slash)
of 12 to 19 digits passes Luhn is drawn again.

It reuses only the value makers of `detect_corpus.py` (luhn digit and
check) and the small ones of `detect_values.py`. Its texts are drawn
from their own seed (`detect_corpus.py` offsets the split's seed by
18018). It is the project's own, like the others.
"""
import base64
import json
import uuid

from detect_values import AN, D, HEX, UHEX, UP, LOW, B64, B64URL, _d, _nz, _put, _seq, _s, _ssn, _tok, with_check, family_doc

B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
B32L = "abcdefghijklmnopqrstuvwxyz234567"
LOWD = LOW + D
SCRIPTS = {
    "arab": "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669",
    "pers": "\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9",
    "deva": "\u0966\u0967\u0968\u0969\u096a\u096b\u096c\u096d\u096e\u096f",
    "beng": "\u09e6\u09e7\u09e8\u09e9\u09ea\u09eb\u09ec\u09ed\u09ee\u09ef",
    "thai": "\u0e50\u0e51\u0e52\u0e53\u0e54\u0e55\u0e56\u0e57\u0e58\u0e59",
    "full": "\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19",
}


def _digits(s, script):
    """`s` with its ASCII digits written in `script`'s digits."""
    return s.translate(str.maketrans("0123456789", SCRIPTS[script]))


def _hexs(r, n, upper=False):
    """`n` random hex digits, drawn again while a run of their digits would
    pass as a card number."""
    while True:
        h = _s(r, UHEX if upper else HEX, n)
        if not _cardish(h):
            return h


def _rb(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def _b64r(r, n, url=False, pad=True):
    """Base64 of `n` random bytes (as key material is written)."""
    raw = _rb(r, n)
    s = base64.urlsafe_b64encode(raw).decode() if url else base64.b64encode(raw).decode()
    return s if pad else s.rstrip("=")


def _luhn_ok(ds):
    total = 0
    for k, c in enumerate(reversed(ds)):
        x = int(c) * (2 if k % 2 else 1)
        total += x - 9 if x > 9 else x
    return total % 10 == 0


def _u(r):
    """A random UUID, drawn again while a run of its digits would pass as
    a card number (UUIDs stand unlabeled in the texts)."""
    while True:
        u = str(uuid.UUID(int=r.getrandbits(128), version=4))
        if not _cardish(u):
            return u


def _b64u(raw):
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


# ------------------------------------------------------------ value makers

def _iban(r):
    """An IBAN of a country of the registry, with its mod-97 check."""
    country, bban = r.choice([
        ("AD", lambda: _d(r, 8) + _s(r, UP + D, 12)),
        ("AE", lambda: _d(r, 19)),
        ("AL", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("AT", lambda: _d(r, 16)),
        ("BA", lambda: _d(r, 16)),
        ("BE", lambda: _d(r, 12)),
        ("CH", lambda: _d(r, 5) + _s(r, UP + D, 12)),
        ("CY", lambda: _d(r, 8) + _s(r, UP + D, 16)),
        ("CZ", lambda: _d(r, 20)),
        ("DE", lambda: _d(r, 18)),
        ("DK", lambda: _d(r, 14)),
        ("EE", lambda: _d(r, 16)),
        ("ES", lambda: _d(r, 20)),
        ("FI", lambda: _d(r, 14)),
        ("FR", lambda: _d(r, 10) + _s(r, UP + D, 11) + _d(r, 2)),
        ("GB", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("GR", lambda: _d(r, 7) + _s(r, UP + D, 16)),
        ("HR", lambda: _d(r, 17)),
        ("IE", lambda: _s(r, UP, 4) + _d(r, 14)),
        ("IS", lambda: _d(r, 22)),
        ("IT", lambda: _s(r, UP, 1) + _d(r, 10) + _s(r, UP + D, 12)),
        ("LT", lambda: _d(r, 16)),
        ("LU", lambda: _d(r, 3) + _s(r, UP + D, 13)),
        ("LV", lambda: _s(r, UP, 4) + _s(r, UP + D, 13)),
        ("MT", lambda: _s(r, UP, 4) + _d(r, 5) + _s(r, UP + D, 18)),
        ("NL", lambda: _s(r, UP, 4) + _d(r, 10)),
        ("NO", lambda: _d(r, 11)),
        ("PL", lambda: _d(r, 24)),
        ("PT", lambda: _d(r, 21)),
        ("RS", lambda: _d(r, 18)),
        ("SA", lambda: _d(r, 2) + _s(r, UP + D, 18)),
        ("SE", lambda: _d(r, 20)),
        ("SI", lambda: _d(r, 15)),
        ("SK", lambda: _d(r, 20)),
        ("TN", lambda: _d(r, 20)),
        ("UA", lambda: _d(r, 6) + _s(r, UP + D, 19)),
        ("XK", lambda: _d(r, 16)),
    ])
    return with_check(country, bban())


def _group(s, sep=" ", n=4):
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


def _card(r, m):
    """A card of a brand or length no family wrote, or a usual one, with its Luhn digit."""
    kind = r.choice(["arca", "elcart", "kortimilli", "hiper", "aura", "maestro12", "maestro13", "unionpay17",
                     "unionpay18", "discover19", "visa", "mc", "jcb", "amex"])
    prefix, n = {
        "arca": ("9051", 16),
        "elcart": ("9417", 16),
        "kortimilli": ("9762", 16),
        "hiper": (r.choice(["637095", "637568", "637599", "637609", "637612"]), 16),
        "aura": ("507860", 16),
        "maestro12": (r.choice(["5018", "5020", "5038", "5893"]), 12),
        "maestro13": (r.choice(["5018", "5020", "5038", "6759"]), 13),
        "unionpay17": ("62" + str(r.randint(2126, 2925)), 17),
        "unionpay18": ("62" + str(r.randint(2126, 2925)), 18),
        "discover19": ("6011", 19),
        "visa": ("4", 16),
        "mc": (str(r.randint(51, 55)), 16),
        "jcb": ("35" + str(r.randint(28, 89)), 16),
        "amex": (r.choice(["34", "37"]), 15),
    }[kind]
    body = prefix + _d(r, n - 1 - len(prefix))
    return body + m.luhn_digit(body), kind


CARD_SEPS = {"emdash": "\u2014", "figdash": "\u2012", "minus": "\u2212", "hair": "\u200a", "punct": "\u2008",
             "sixperem": "\u2006", "mathsp": "\u205f", "middot": "\u00b7", "katadot": "\u30fb", "fwhyphen": "\uff0d",
             "zwsp": "\u200b", "space": " ", "solid": ""}


def _groups(c):
    """How the number's digits are grouped when written (4-6-5 for 15
    digits, fours for the rest, the tail shorter)."""
    if len(c) == 15:
        return [c[:4], c[4:10], c[10:]]
    return [c[i:i + 4] for i in range(0, len(c), 4)]


def _card_shown(r, c):
    """The number as a form, a receipt or a person writes it, and its form name."""
    sep = r.choice(sorted(CARD_SEPS))
    return CARD_SEPS[sep].join(_groups(c)), sep


def _card_script(r, c, script):
    return _digits(r.choice([" ".join(_groups(c)), c]), script)


PHONES = [
    ("xk", lambda r: "+383 4%s %s %s" % (r.choice("345689"), _d(r, 3), _d(r, 3))),
    ("sh", lambda r: "+290 %s%s" % (r.choice("56"), _d(r, 4))),
    ("ac", lambda r: "+247 6%s" % _d(r, 4)),
    ("nu", lambda r: "+683 %s%s" % (r.choice("47"), _d(r, 3))),
    ("io", lambda r: "+246 380 %s" % _d(r, 4)),
    ("ax", lambda r: r.choice(["+358 18 %s" % _d(r, 5), "+358 457 %s %s" % (_d(r, 3), _d(r, 4))])),
    ("je", lambda r: r.choice(["+44 1534 %s" % _d(r, 6), "+44 7797 %s" % _d(r, 6), "+44 (0)1534 %s" % _d(r, 6)])),
    ("gg", lambda r: r.choice(["+44 1481 %s" % _d(r, 6), "+44 7781 %s" % _d(r, 6)])),
    ("im", lambda r: r.choice(["+44 1624 %s" % _d(r, 6), "+44 7624 %s" % _d(r, 6)])),
    ("ky", lambda r: "+1 345 %s%s %s" % (r.choice("2359"), _d(r, 2), _d(r, 4))),
    ("pr", lambda r: "+1 %s %s%s %s" % (r.choice(["787", "939"]), _nz(r), _d(r, 2), _d(r, 4))),
    ("tt", lambda r: "+1 868 %s%s %s" % (r.choice("3467"), _d(r, 2), _d(r, 4))),
    ("bb", lambda r: "+1 246 %s%s %s" % (r.choice("2458"), _d(r, 2), _d(r, 4))),
    ("jm", lambda r: "+1 %s %s%s %s" % (r.choice(["876", "658"]), _nz(r), _d(r, 2), _d(r, 4))),
]

# Numbers written in their country's own digits.
SCRIPT_PHONES = [
    ("ae", "arab", lambda r: "+971 5%s %s %s" % (r.choice("024568"), _d(r, 3), _d(r, 4))),
    ("ir", "pers", lambda r: "+98 9%s %s %s" % (_d(r, 2), _d(r, 3), _d(r, 4))),
    ("in", "deva", lambda r: "+91 %s%s %s" % (r.choice("6789"), _d(r, 4), _d(r, 5))),
    ("bd", "beng", lambda r: "+880 1%s%s-%s" % (r.choice("3456789"), _d(r, 2), _d(r, 6))),
    ("th", "thai", lambda r: "+66 %s%s %s %s" % (r.choice("689"), _d(r, 1), _d(r, 3), _d(r, 4))),
    ("jp", "full", lambda r: "\uff0b81 %s-%s-%s" % (r.choice(["90", "80", "70"]), _d(r, 4), _d(r, 4))),
]


def _phone(r):
    return r.choice(PHONES)


def _e164(p):
    return "+" + "".join(c for c in p if c.isdigit())


def _v4(r):
    if r.random() < 0.3:
        return r.choice([
            lambda: "10.%d.%d.%d" % (r.randint(0, 255), r.randint(0, 255), r.randint(2, 254)),
            lambda: "172.%d.%d.%d" % (r.randint(16, 31), r.randint(0, 255), r.randint(2, 254)),
            lambda: "192.168.%d.%d" % (r.randint(0, 255), r.randint(2, 254)),
        ])()
    return "%d.%d.%d.%d" % (r.choice([3, 8, 15, 24, 31, 37, 41, 45, 51, 57, 64, 66, 71, 77, 80, 85, 91, 95, 98, 103,
                                      107, 116, 121, 135, 141, 149, 157, 162, 167, 171, 179, 185, 193, 197, 201, 207, 213, 217]),
                            r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _v6(r):
    g = lambda: "%x" % r.randint(1, 0xffff)
    return r.choice([
        lambda: "2a01:4f8:%s:%s::%s" % (g(), g(), g()),                             # Hetzner
        lambda: "2001:41d0:%s:%s::%s" % (g(), g(), g()),                            # OVH
        lambda: "2604:a880:%s:%s::%s:%s" % (g(), g(), g(), g()),                    # DigitalOcean
        lambda: "2600:3c00::%s:%s:%s:%s" % (g(), g(), g(), g()),                    # Linode
        lambda: "2001:19f0:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # Vultr
        lambda: "2603:c020:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # Oracle
        lambda: "2605:59c8:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # a satellite ISP
        lambda: "2607:fb90:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # a US mobile carrier
        lambda: "2a00:23c5:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # a UK ISP
        lambda: "2a01:cb00:%s:%s:%s:%s:%s:%s" % (g(), g(), g(), g(), g(), g()),     # a French ISP
        lambda: "2a02:1210:%s:%s::%s" % (g(), g(), g()),                            # a Swiss ISP
        lambda: "fd%02x:%s:%s::%s" % (r.randint(0, 255), g(), g(), g()),            # a ULA
    ])()


def _jwt(r, alg=None, body=None, typ=None, pad=False):
    alg = alg or r.choice(["ES384", "RS384", "HS384", "ES256", "RS256", "EdDSA"])
    head = {"alg": alg}
    if typ or r.random() < 0.6:
        head["typ"] = typ or r.choice(["JWT", "oauth-authz-req+jwt", "entity-statement+jwt", "kb+jwt", "JWT"])
    if r.random() < 0.5:
        head["kid"] = r.choice([_u(r), _s(r, B64URL, 43), _hexs(r, 16)])
    if body is None:
        body = {"iss": r.choice(["https://id.kiosk.example", "https://auth.example.house/realms/home",
                                 "https://securetoken.google.com/kiosk-%s" % _s(r, LOWD, 6)]),
                "sub": r.choice([_u(r), _s(r, AN, 28), "kiri"]),
                "aud": r.choice(["kiosk-api", "homelab", _hexs(r, 32)]),
                "iat": r.randint(1_760_000_000, 1_790_000_000)}
        body["exp"] = body["iat"] + r.choice([600, 3600, 86400])
    sig = {"RS256": 342, "RS384": 342, "ES256": 86, "ES384": 128, "EdDSA": 86, "HS384": 64, "HS256": 43,
           "ed25519-nkey": 86}[alg]
    enc = (lambda raw: base64.urlsafe_b64encode(raw.encode()).decode()) if pad else _b64u
    s = _s(r, B64URL, sig)
    if pad:
        s = base64.urlsafe_b64encode(_rb(r, {86: 64, 128: 96, 342: 256}.get(sig, 64))).decode()
    return "%s.%s.%s" % (enc(json.dumps(head, separators=(",", ":"))), enc(json.dumps(body, separators=(",", ":"))), s)


def _pem_lines(r, kind):
    body = [_s(r, B64, 64) for _ in range(r.randint(4, 12))] + [_s(r, B64, r.randint(8, 60)) + r.choice(["", "=", "=="])]
    return ["-----BEGIN %sPRIVATE KEY-----" % kind] + body + ["-----END %sPRIVATE KEY-----" % kind]


def _pw(r):
    """A password as people pick them for service accounts."""
    return _tok(r, r.randint(12, 24)) + r.choice(["", "", "!", "#", "*", "%", "?", "=", ".", "+"])


def _url_pw(r):
    """A password as it stands in a URL's user info, percent-encoded where it must be."""
    return _tok(r, r.randint(10, 24)) + r.choice(["", "", "", "%24", "%2C", "%3B", "%3D", "%7E", "-", "."])


# ------------------------------------------------------------ prose
#
# Short phrases written by the session, only roughly idiomatic (several
# languages and scripts here it does not read, where the phrase is an
# approximation).

PROSE = {
    "vro": "Olkõ hää, võtkõ ühendüst {} ",              # Võro
    "olo": "Olgua hyvät, ottakkua yhteyttü {} ",          # Livvi-Karelian
    "kv": "Гораа, гижӧй {} ",                            # Komi
    "mhr": "Лийже, возыза {} ",                          # Meadow Mari
    "myv": "Инеськеденте, сёрмадодо {} ",                # Erzya
    "xal": "Буйн болтха, бичг илгәтн {} ",               # Kalmyk
    "bxr": "Гуйнаб, бэшэг эльгээгты {} ",                # Buryat
    "tyv": "Дилээр-дир мен, бижик чоруудуңар {} ",       # Tuvan
    "av": "Гьарула, хъвай {} ",                          # Avar
    "kbd": "Кхъыщӏэ, тхыгъэ къыдэвгъэхь {} ",            # Kabardian
    "ady": "Шъукъелъэӏу, тхыгъэ къытфэшъутх {} ",         # Adyghe
    "ab": "Шәыҳәоит, ашәҟәы аашәышь {} ",                # Abkhaz
    "gag": "Lütfen, yazın {} ",                          # Gagauz
    "ltg": "Lyudzams, saisteitīs ar {} ",                # Latgalian
    "sgs": "Prašuom, sosėsėikėt so {} ",                 # Samogitian
    "smn": "Lavdi, vuolgât sáttáá {} ",                  # Inari Sami
    "lmo": "Per piasè, scrivii a {} ",                   # Lombard
    "eml": "Par piasèr, scrivî a {} ",                   # Emilian
    "ext": "Pol favol, escrebei a {} ",                  # Extremaduran
    "leo": "Por favor, escribide a {} ",                 # Leonese
    "oc_aranes": "Se vos platz, escriuetz a {} ",        # Aranese
    "stq": "Wäs so goud un skriuw an {} ",               # Saterland Frisian
    "vls": "Aub, stuurt e berichtje noa {} ",            # West Flemish
    "ryu": "うんじゅが {} んかい ゆしりてぃ くみそーれー ",   # Okinawan
    "ain": "イランカラプテ、{} エンカ チシレン ",          # Ainu (katakana)
    "teo": "Tsiang liang-log {} ",                       # Teochew (Peng'im, no tones)
    "min": "Tolong hubuangi {} ",                        # Minangkabau
    "ace": "Neutulông hubông {} ",                       # Acehnese
    "war": "Alayon, kontaka an {} ",                     # Waray
    "hil": "Palihog, kontaka si {} ",                    # Hiligaynon
    "pam": "Pakisabi, kontakan ye i {} ",                # Kapampangan
    "lus": "Khawngaihin {} hi be rawh ",                 # Mizo
    "kha": "Sngewbha ia pynpoi ia {} ",                  # Khasi
    "shn": "ၶႅၼ်းတေႃႈ {} ",                               # Shan
    "ksw": "ဝံသးစူၤ {} ",                                # S'gaw Karen
    "vai": "ꕉꕜꕮ ꔔꘋ {} ",                                # Vai (Vai script)
    "aa": "Koo dacayta, {} fan ab ",                     # Afar
    "kr": "Alla nəmkanawa, {} ro ",                      # Kanuri
    "mos": "Bãmb sugri, gom ne {} ",                     # Mooré
    "bm": "Hakɛto, kuma ni {} ye ",                      # Bambara
    "lua": "Tukulomba, bikila {} ",                      # Tshiluba
    "sg": "Mbi hunda mo, sara tene na {} ",              # Sango
    "luo": "Kiyie, tudri gi {} ",                        # Dholuo
    "mas": "Tanyamal, ikiaku {} ",                       # Maasai
    "ve": "Ri humbela ni kwame {} ",                     # Venda
    "ss": "Siyacela, tsintsana na {} ",                  # siSwati
    "nr": "Sibawa, thintana no {} ",                     # Southern Ndebele
    "hz": "Arikana, kambura {} ",                        # Herero
    "ng": "Ombili, kwatafana na {} ",                    # Oshiwambo (Ndonga)
    "naq": "Toxoba, ǂâi {} ",                            # Khoekhoe
    "kri": "Duya, kɔntakt {} ",                          # Krio
    "pcm": "Abeg, contact {} ",                          # Nigerian Pidgin
    "kea": "Pur favor, kontata {} ",                     # Kabuverdianu
    "yua": "Ts'o'ok a k'a'abéetkuntik, t'an {} ",        # Yucatec Maya
    "quc": "Kinta'o' chawe, ch'a'b'ej {} ",              # K'iche'
    "zap": "Biluxe, guni diidxa' {} ",                   # Zapotec
    "oto": "Hogä, zofo {} ",                             # Otomi
    "guc": "Anasü, ashajaa {} ",                         # Wayuu
    "miq": "Plis, {} ra aisabaia ",                      # Miskito
    "cab": "Buíti, ayanuha {} ",                         # Garifuna
    "oj": "Daga, gagwejim {} ",                          # Ojibwe
    "lkt": "Wóphila, {} ektá wówapi yeš'ú ",             # Lakota
    "moh": "Tóhsa sasa'nikònhrhen, {} ",                 # Mohawk
    "mic": "Ke', teluisi {} ",                           # Mi'kmaq
    "rar": "Ka pu'apinga, tuku mai ki {} ",              # Cook Islands Māori
    "niu": "Fakamolemole, fakafeleveia ki {} ",          # Niuean
    "gil": "Taiaoka, reta nakon {} ",                    # Gilbertese
    "mh": "Jouj im kūbwe ilo {} ",                       # Marshallese
    "pau": "Ak mesterir, kmo el {} ",                    # Palauan
    "ho": "Mani, {} ena gado ai ",                       # Hiri Motu
    "rap": "Ka tuku mai ki {} ",                         # Rapa Nui
    "pis": "Plis, kontaktem {} ",                        # Pijin
    "rop": "Plis, toktok la {} ",                        # Kriol
    "wbp": "Yungkaju {} ",                               # Warlpiri
    "osa": "𐓏𐓘𐓻𐓘𐓻𐓟 {} ",                                 # Osage (Osage script)
}

# Prose for the values written in other digits: the language that writes them.
SCRIPT_PROSE = {
    "arab": "يرجى التواصل على {} ",
    "pers": "لطفا با {} تماس بگیرید ",
    "deva": "कृपया {} पर संपर्क करें ",
    "beng": "অনুগ্রহ করে {} নম্বরে যোগাযোগ করুন ",
    "thai": "กรุณาติดต่อ {} ",
    "full": "お問い合わせは {} まで ",
}


def _prose(r, doc, value, cls, form_prefix, word, claimed=True):
    lang = r.choice(sorted(PROSE))
    lead, tail = PROSE[lang].split("{}")
    _put(doc, lead + word + " ", value, cls, "%s_%s" % (form_prefix, lang), tail + "\n", claimed)


# ------------------------------------------------------------ carriers
#
# Surroundings every class is written in: templates, queries, diagrams,
# subtitles, metrics and scheduler output. Each takes a label and gives
# the text before and after the value.

def _carrier(r, label, quote_ok=True):
    form = r.choice(["twig", "blade", "erb", "handlebars", "liquid", "haml", "svelte", "kql", "spl", "cypher", "sparql",
                     "flux", "logql", "jq", "mermaid", "plantuml", "dot", "ass", "ttml", "influx", "otel_debug",
                     "slurm", "nextflow", "nodered"])
    if not quote_ok and form in ("twig", "blade", "erb", "liquid", "svelte", "cypher", "jq", "nextflow"):
        form = "ass"
    key = label.lower().replace(" ", "_").replace("-", "").replace(".", "")
    camel = "".join(w.title() if k else w for k, w in enumerate(key.split("_")))
    pascal = camel[:1].upper() + camel[1:]
    mm, ss = r.randint(0, 59), r.randint(0, 59)
    lead, tail = {
        "twig": ("{%% set customer_%s = '" % key, "' %%}\n<dd>{{ customer_%s }}</dd>\n" % key),
        "blade": ("@php($customer->%s = '" % camel, "')\n<dd>{{ $customer->%s }}</dd>\n" % camel),
        "erb": ("<%% @%s = \"" % key, "\" %%>\n<dd><%%= @%s %%></dd>\n" % key),
        "handlebars": ("{{> contact-card %s=\"" % camel, "\"}}\n"),
        "liquid": ("{%% assign %s = \"" % key, "\" %}\n"),
        "haml": ("%%dl\n  %%dt %s\n  %%dd " % label.title(), "\n"),
        "svelte": ("<script>\n  let %s = '" % camel, "';\n</script>\n<dd>{%s}</dd>\n" % camel),
        "kql": ("Customers\n| where %s == \"" % pascal, "\"\n| project Id, Name, UpdatedAt\n"),
        "spl": ("index=crm sourcetype=profile_update %s=\"" % key, "\" | table _time user action\n"),
        "cypher": ("MATCH (c:Customer {%s: '" % camel, "'}) RETURN c.id, c.name\n"),
        "sparql": ("SELECT ?c WHERE {\n  ?c ex:%s \"" % camel, "\" .\n}\n"),
        "flux": ("from(bucket: \"crm\")\n  |> range(start: -7d)\n  |> filter(fn: (r) => r.%s == \"" % key, "\")\n"),
        "logql": ("{app=\"billing\", env=\"prod\"} |= \"", "\" | json\n"),
        "jq": ("jq '.[] | select(.%s == \"" % key, "\")' customers.json\n"),
        "mermaid": ("flowchart LR\n  T[Ticket] --> C[\"%s: " % label, "\"]\n"),
        "plantuml": ("@startuml\nnote right of Customer\n  %s: " % label, "\nend note\n@enduml\n"),
        "dot": ("digraph ticket {\n  c [shape=box, label=\"%s: " % label, "\"];\n}\n"),
        "ass": ("Dialogue: 0,0:%02d:%02d.%02d,0:%02d:%02d.%02d,Default,Agent,0,0,0,,my %s is " % (
            mm, ss, r.randint(0, 99), mm, min(ss + 3, 59), r.randint(0, 99), label), "\n"),
        "ttml": ("<p begin=\"00:%02d:%02d.%03d\" end=\"00:%02d:%02d.%03d\">%s: " % (
            mm, ss, r.randint(0, 999), mm, min(ss + 4, 59), r.randint(0, 999), label), "</p>\n"),
        "influx": ("profile_update,team=billing,source=web %s=\"" % key, "\" %d\n" % r.randint(1_760_000_000, 1_790_000_000)),
        "otel_debug": ("Attributes:\n     -> http.route: Str(/v1/customers)\n     -> customer.%s: Str(" % key, ")\n"),
        "slurm": ("   JobId=%d JobName=export_%s\n   UserId=etl(%d) GroupId=etl(%d)\n   Comment=%s " % (
            r.randint(10000, 999999), key, r.randint(1000, 9999), r.randint(1000, 9999), label), "\n"),
        "nextflow": ("params.%s = '" % camel, "'\n"),
        "nodered": ("7 Dec 04:%02d:%02d - [info] [debug:%s] " % (mm, ss, camel), "\n"),
    }[form]
    return form, lead, tail


# ------------------------------------------------------------ items

def _email(r):
    local = r.choice(["kiri.tane", "aroha", "liridona.k", "dritan_b", "saint.helena.ops", "moana-p", "tavita",
                      "ines.ahlgren", "jerrold.v", "mairead", "homelab", "frigate-alerts", "hpc-admin", "grid.ops",
                      "Ngaire.W", "rcon", "ttn-ops", "noc+lora", "d.ramdin", "keisha.b"])
    dom = r.choice(["pristina.example.net", "jamestown.example.sh", "alofi.example.nu", "mariehamn.example.ax",
                    "st-helier.example.je", "stpeterport.example.gg", "douglas.example.im", "georgetown.example.ky",
                    "sanjuan.example.pr", "portofspain.example.tt", "bridgetown.example.bb", "kingston.example.jm",
                    "lab.example.house", "cluster.example.edu", "Example.Games", "mx.example.farm"])
    return "%s@%s" % (local, dom)


def i_email(r, doc, m):
    form = r.choice(["r_authors", "r_maintainer", "julia_project", "mix_exs", "pbs_mail", "sbatch_mail", "gcp_iam",
                     "x509_san", "list_unsubscribe", "dispo_notification", "gitea_mailer", "synapse_notif",
                     "authelia_users", "crontab_mailto", "fullwidth_at", "carrier", "carrier", "carrier", "prose"])
    e = _email(r)
    if form == "prose":
        _prose(r, doc, e, "email", "prose", "e-mail")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "e-mail")
        _put(doc, lead, e, "email", "carrier_" + f, tail)
        return
    if form == "fullwidth_at":
        # Japanese and Chinese pages write the at sign full width (against
        # harvesters); the address is still an address.
        local, dom = e.split("@")
        lead, tail = r.choice([("お問い合わせ：", "\n"), ("联系邮箱：", "（请将＠换成@）\n"), ("メール: ", " まで\n")])
        _put(doc, lead, local + "\uff20" + dom, "email", form, tail)
        return
    name = r.choice(["Kiri Tane", "Liridona Krasniqi", "Ines Ahlgren", "Keisha Baptiste", "Dritan Berisha"])
    first, last = name.split()
    lead, tail = {
        "r_authors": ("Authors@R: person(\"%s\", \"%s\", email = \"" % (first, last), "\",\n    role = c(\"aut\", \"cre\"))\n"),
        "r_maintainer": ("Package: kioskstats\nVersion: 0.3.2\nMaintainer: %s <" % name, ">\n"),
        "julia_project": ("name = \"KioskStats\"\nuuid = \"%s\"\nauthors = [\"%s <" % (_u(r), name), ">\"]\n"),
        "mix_exs": ("  defp package do\n    [maintainers: [\"%s\"],\n     links: %%{\"Support\" => \"mailto:" % name, "\"}]\n  end\n"),
        "pbs_mail": ("#PBS -N assemble_%s\n#PBS -l select=2:ncpus=32\n#PBS -M " % _s(r, LOW, 5), "\n#PBS -m abe\n"),
        "sbatch_mail": ("#SBATCH --job-name=align\n#SBATCH --time=12:00:00\n#SBATCH --mail-user=", "\n#SBATCH --mail-type=END,FAIL\n"),
        "gcp_iam": ("bindings:\n- members:\n  - user:", "\n  role: roles/bigquery.dataViewer\netag: BwY%s\n" % _s(r, AN, 8)),
        "x509_san": ("        X509v3 extensions:\n            X509v3 Subject Alternative Name: \n                email:", ", DNS:kiosk.example.house\n"),
        "list_unsubscribe": ("List-Unsubscribe: <mailto:", "?subject=unsubscribe>, <https://lists.example.net/u/%s>\n" % _s(r, LOWD, 12)),
        "dispo_notification": ("Disposition-Notification-To: %s <" % name, ">\n"),
        "gitea_mailer": ("[mailer]\nENABLED = true\nPROTOCOL = smtps\nFROM = ", "\n"),
        "synapse_notif": ("email:\n  smtp_host: mail.example.house\n  notif_from: \"Home Matrix <", ">\"\n"),
        "authelia_users": ("users:\n  %s:\n    displayname: \"%s\"\n    email: " % (first.lower(), name), "\n    groups:\n      - admins\n"),
        "crontab_mailto": ("MAILTO=", "\n15 3 * * * /usr/local/bin/restic-backup.sh\n"),
    }[form]
    _put(doc, lead, e, "email", form, tail)


def i_phone(r, doc, m):
    form = r.choice(["t_me", "signal_me", "callto", "facetime", "nbhyphen", "erpnext", "mastodon_field", "nodered_sms",
                     "matrix_msisdn", "script", "script", "script", "carrier", "carrier", "carrier", "prose"])
    if form == "script":
        cc, script, mk = r.choice(SCRIPT_PHONES)
        p = mk(r)
        shown = _digits(p, script)
        lead, tail = SCRIPT_PROSE[script].split("{}")
        _put(doc, lead, shown, "phone", "script_%s_%s" % (script, cc), tail + "\n")
        return
    cc, mk = _phone(r)
    p = mk(r)
    if form == "prose":
        _prose(r, doc, p, "phone", "prose_" + cc, "tel.")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "phone")
        _put(doc, lead, p, "phone", "carrier_%s_%s" % (f, cc), tail)
        return
    if form == "nbhyphen":
        # Non-breaking hyphens, as word processors keep a number on one line.
        head, *rest = p.split(" ")
        shown = head + " " + "\u2011".join(rest)
        _put(doc, r.choice(["Tel.\u00a0", "Phone:\u00a0", "Mobile\u00a0"]), shown, "phone", "nbhyphen_" + cc, "\n")
        return
    e = _e164(p)
    if form == "matrix_msisdn":
        # Matrix keeps a phone identifier as its digits without the plus.
        _put(doc, "{\"threepids\": [{\"medium\": \"msisdn\", \"address\": \"", e[1:], "phone", "matrix_msisdn_" + cc,
             "\", \"added_at\": %d}]}\n" % r.randint(1_760_000_000, 1_790_000_000),
             claimed=False)
        return
    lead, v, tail = {
        "t_me": ("Chat with us: https://t.me/", e, "\n"),
        "signal_me": ("<a href=\"https://signal.me/#p/", e, "\">Signal</a>\n"),
        "callto": ("<a href=\"callto:", e, "\">Skype</a>\n"),
        "facetime": ("<a href=\"facetime-audio:", e, "\">FaceTime</a>\n"),
        "erpnext": ("{\"doctype\": \"Contact\", \"first_name\": \"Keisha\", \"mobile_no\": \"", p, "\"}\n"),
        "mastodon_field": ("\"fields\": [{\"name\": \"Phone\", \"value\": \"", p, "\", \"verified_at\": null}],\n"),
        "nodered_sms": ("msg.payload = { to: \"", p, "\", body: \"Freezer above -12C\" };\nreturn msg;\n"),
    }[form]
    _put(doc, lead, v, "phone", "%s_%s" % (form, cc), tail)


def i_ssn(r, doc, m):
    a, g, s = _ssn(r)
    dashed = "%s-%s-%s" % (a, g, s)
    form = r.choice(["cda_id", "w9_ocr", "ss5", "dd214", "va_file", "everify", "payroll_api", "f4506c", "sf86",
                     "nbhyphen", "minus", "fwhyphen", "carrier", "carrier", "carrier"])
    if form == "carrier":
        f, lead, tail = _carrier(r, r.choice(["SSN", "social security number"]))
        _put(doc, lead, dashed, "us_ssn", "carrier_" + f, tail)
        return
    if form == "va_file":
        # The VA's file number is often the veteran's SSN, spaced, under no SSN word.
        _put(doc, "DEPARTMENT OF VETERANS AFFAIRS\nIn Reply Refer To: 27\nVA File Number: ", "%s %s %s" % (a, g, s), "us_ssn",
             form, "\nDear Mr. Berisha:\n", claimed=False)
        return
    lead, v, tail = {
        "cda_id": ("<patientRole>\n  <id root=\"2.16.840.1.113883.4.1\" extension=\"", dashed, "\"/>\n"),
        "w9_ocr": ("Part I  Taxpayer Identification Number (TIN)\nSocial security number\n", "%s - %s - %s" % (a, g, s), "\nor\nEmployer identification number\n"),
        "ss5": ("Form SS-5 (08-2011)\n5. Has the applicant ever received a Social Security number card before? Yes\n"
                "   Social Security number previously assigned: ", dashed, "\n"),
        "dd214": ("1. NAME (Last, First, Middle)      2. DEPARTMENT, COMPONENT AND BRANCH    3. SOCIAL SECURITY NUMBER\n"
                  "BERISHA, DRITAN                    ARMY/RA                                ", "%s %s %s" % (a, g, s), "\n"),
        "everify": ("{\"case\": {\"first_name\": \"Keisha\", \"last_name\": \"Baptiste\", \"ssn\": \"", a + g + s,
                    "\", \"citizenship_status_code\": \"US_CITIZEN\"}}\n"),
        "payroll_api": ("PUT /v1/employees/%s\n{\"first_name\": \"Ines\", \"ssn\": \"" % _u(r), dashed, "\", \"date_of_birth\": \"1984-02-29\"}\n"),
        "f4506c": ("1a. Current name  KEISHA BAPTISTE\n1b. First taxpayer identification number (see instructions)  ", dashed, "\n"),
        "sf86": ("Section 4 - Social Security Number\nU.S. Social Security Number: ", dashed, "   [ ] Not applicable\n"),
        "nbhyphen": ("SSN:\u00a0", "%s\u2011%s\u2011%s" % (a, g, s), "\n"),
        "minus": ("Social Security No. ", "%s\u2212%s\u2212%s" % (a, g, s), "\n"),
        "fwhyphen": ("社会保障番号（SSN）：", "%s\uff0d%s\uff0d%s" % (a, g, s), "\n"),
    }[form]
    _put(doc, lead, v, "us_ssn", form, tail)


def i_card(r, doc, m):
    c, kind = _card(r, m)
    form = r.choice(["authorize_net", "worldpay", "payu", "mercadopago", "iyzico", "span_groups", "script", "script",
                     "sep", "sep", "carrier", "carrier", "prose"])
    if form == "script":
        script = r.choice(["arab", "pers", "deva", "beng", "thai"])
        word = {"arab": "رقم البطاقة ", "pers": "شماره کارت ", "deva": "कार्ड संख्या ", "beng": "কার্ড নম্বর ", "thai": "หมายเลขบัตร "}[script]
        _put(doc, word, _card_script(r, c, script), "credit_card", "script_%s_%s" % (script, kind), "\n")
        return
    if form == "span_groups":
        # A card preview renders one element a group; the markup sits inside the number.
        v = "</span><span class=\"grp\">".join(_groups(c))
        _put(doc, "<div class=\"card-preview\"><span class=\"grp\">", v, "credit_card", "span_groups_" + kind, "</span></div>\n")
        return
    shown, sep = _card_shown(r, c)
    if form == "sep":
        _put(doc, r.choice(["Card: ", "PAN ", "card number ", "Karte "]), shown, "credit_card", "sep_%s_%s" % (sep, kind), "\n")
        return
    if form == "prose":
        _prose(r, doc, shown, "credit_card", "prose_%s_%s" % (sep, kind), "card")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, r.choice(["card number", "card"]))
        _put(doc, lead, shown, "credit_card", "carrier_%s_%s_%s" % (f, sep, kind), tail)
        return
    lead, v, tail = {
        "authorize_net": ("{\"createTransactionRequest\": {\"transactionRequest\": {\"payment\": {\"creditCard\": {\"cardNumber\": \"", c,
                          "\", \"expirationDate\": \"2029-12\"}}}}}\n"),
        "worldpay": ("<paymentDetails>\n  <CARD-SSL>\n    <cardNumber>", c, "</cardNumber>\n    <expiryDate><date month=\"12\" year=\"2029\"/></expiryDate>\n"),
        "payu": ("\"creditCard\": {\"number\": \"", c, "\", \"securityCode\": \"***\", \"expirationDate\": \"2029/12\", \"name\": \"APPROVED\"},\n"),
        "mercadopago": ("{\"card_number\": \"", c, "\", \"expiration_month\": 12, \"expiration_year\": 2029, \"cardholder\": {\"name\": \"APRO\"}}\n"),
        "iyzico": ("  \"paymentCard\": {\n    \"cardHolderName\": \"Dritan Berisha\",\n    \"cardNumber\": \"", c, "\",\n    \"expireYear\": \"2029\"\n  },\n"),
    }[form]
    _put(doc, lead, v, "credit_card", "%s_%s" % (form, kind), tail)


def i_iban(r, doc, m):
    i = _iban(r)
    spaced = _group(i)
    form = r.choice(["pacs008", "mt101", "xero", "erpnext", "qonto", "bunq", "hyphens", "carrier", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, spaced, "iban", "prose", "IBAN")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "IBAN")
        _put(doc, lead, r.choice([i, spaced]), "iban", "carrier_" + f, tail)
        return
    if form == "qonto":
        # The BIC beside it is a look-alike.
        doc.t("{\"bank_account\": {\"slug\": \"kiosk-bank-account-1\", \"iban\": \"")
        doc.item(i, "iban", "t_qonto")
        doc.t("\", \"bic\": \"")
        _look(r, doc, lambda: _s(r, UP, 4) + i[:2] + _s(r, UP + D, 2), "bic")
        doc.t("\", \"currency\": \"EUR\"}}\n")
        return
    lead, v, tail = {
        "pacs008": ("<CdtTrfTxInf>\n  <CdtrAcct>\n    <Id>\n      <IBAN>", i, "</IBAN>\n    </Id>\n  </CdtrAcct>\n"),
        "mt101": (":50H:/", i, "\nKIOSK SUPPLIES LTD\n:30:261207\n"),
        "xero": ("{\"Contacts\": [{\"Name\": \"Kiosk Supplies\", \"BankAccountDetails\": \"", i, "\"}]}\n"),
        "erpnext": ("{\"doctype\": \"Bank Account\", \"account_name\": \"Main\", \"iban\": \"", i, "\", \"is_company_account\": 1}\n"),
        "bunq": ("\"counterparty_alias\": {\"type\": \"IBAN\", \"value\": \"", i, "\", \"name\": \"K. Baptiste\"},\n"),
        "hyphens": (r.choice(["Bankverbindung: ", "Please wire to ", "Konto: "]), "-".join(i[k:k + 4] for k in range(0, len(i), 4)), "\n"),
    }[form]
    _put(doc, lead, v, "iban", form, tail)


def i_ipv4(r, doc, m):
    ip, ip2 = _v4(r), _v4(r)
    port = r.randint(1024, 65000)
    form = r.choice(["ospf_neighbor", "bgp_summary", "cisco_arp", "tracert", "source_status", "factorio", "teamspeak",
                     "pihole", "adguard", "syncthing", "vaultwarden", "nextcloud_log", "gitea_router", "mosquitto",
                     "mpi_hostfile", "slurm_nodeaddr", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv4", "prose", "IP")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "client ip")
        _put(doc, lead, ip, "ipv4", "carrier_" + f, tail)
        return
    mac = ".".join(_hexs(r, 4) for _ in range(3))
    parts = {
        "ospf_neighbor": ["Neighbor ID     Pri   State           Dead Time   Address         Interface\n", (ip, "ipv4"),
                          "        1   FULL/DR         00:00:%02d    " % r.randint(30, 39), (ip2, "ipv4"), "     GigabitEthernet0/%d\n" % r.randint(0, 3)],
        "bgp_summary": ["Neighbor        V           AS MsgRcvd MsgSent   TblVer  InQ OutQ Up/Down  State/PfxRcd\n", (ip, "ipv4"),
                        "       4        %d    %d    %d       %d    0    0 1w2d          %d\n" % (
                            r.randint(64512, 65534), r.randint(1000, 99999), r.randint(1000, 99999), r.randint(10, 999), r.randint(1, 900))],
        "cisco_arp": ["Protocol  Address          Age (min)  Hardware Addr   Type   Interface\nInternet  ", (ip, "ipv4"),
                      "             %d   %s  ARPA   Vlan%d\n" % (r.randint(0, 240), mac, r.randint(2, 400))],
        "tracert": ["Tracing route to kiosk.example.house over a maximum of 30 hops\n\n  %d    %d ms    %d ms    %d ms  " % (
            r.randint(2, 9), r.randint(1, 40), r.randint(1, 40), r.randint(1, 40)), (ip, "ipv4"), "\n"],
        "source_status": ["# userid name                uniqueid            connected ping loss state  adr\n#      %d \"kiri\"    STEAM_1:0:%d  %02d:%02d       %d    0 active ",
                          (ip, "ipv4"), ":27005\n"],
        "factorio": ["%d.%03d Info ServerMultiplayerManager.cpp:%d: Received peer info for peer(%d) IP ADDR:({" % (
            r.randint(10, 9999), r.randint(0, 999), r.randint(600, 999), r.randint(1, 20)), (ip, "ipv4"), ":%d})\n" % port],
        "teamspeak": ["client_nickname=kiri client_version=3.6.2 client_lastconnected=%d client_lastip=" % r.randint(1_760_000_000, 1_790_000_000),
                      (ip, "ipv4"), "\n"],
        "pihole": ["Dec  7 04:%02d:%02d dnsmasq[%d]: query[AAAA] updates.example.org from " % (r.randint(0, 59), r.randint(0, 59), r.randint(100, 9999)),
                   (ip, "ipv4"), "\n"],
        "adguard": ["{\"T\":\"2026-12-07T04:%02d:%02d.%06dZ\",\"QH\":\"telemetry.example.tv\",\"QT\":\"A\",\"CP\":\"\",\"IP\":\"" % (
            r.randint(0, 59), r.randint(0, 59), r.randint(0, 999999)), (ip, "ipv4"), "\",\"Elapsed\":%d}\n" % r.randint(10000, 999999)],
        "syncthing": ["[%s] 04:%02d:%02d INFO: Established secure connection to %s at " % (
            _s(r, UP + D, 5), r.randint(0, 59), r.randint(0, 59), _s(r, UP + D, 7)), (ip, "ipv4"), ":22000-", (ip2, "ipv4"),
                      ":%d/tcp-server/TLS1.3-TLS_AES_128_GCM_SHA256\n" % port],
        "vaultwarden": ["[2026-12-07 04:%02d:%02d.%03d][vaultwarden::api::identity][ERROR] Username or password is incorrect. Try again. IP: " % (
            r.randint(0, 59), r.randint(0, 59), r.randint(0, 999)), (ip, "ipv4"), ". Username: kiri.\n"],
        "nextcloud_log": ["{\"reqId\":\"%s\",\"level\":2,\"app\":\"core\",\"method\":\"POST\",\"url\":\"/login\",\"remoteAddr\":\"" % _s(r, AN, 20),
                          (ip, "ipv4"), "\",\"message\":\"Login failed\"}\n"],
        "gitea_router": ["2026/12/07 04:%02d:%02d ...eb/routing/logger.go:102:func1() [I] router: completed POST /user/login for " % (
            r.randint(0, 59), r.randint(0, 59)), (ip, "ipv4"), ":%d, 303 See Other in %d.%dms\n" % (port, r.randint(1, 99), r.randint(0, 9))],
        "mosquitto": ["%d: New client connected from " % r.randint(1_760_000_000, 1_790_000_000), (ip, "ipv4"),
                      ":%d as kiosk-%02d (p2, c1, k60, u'kiosk').\n" % (port, r.randint(1, 99))],
        "mpi_hostfile": ["# hostfile for mpirun\n", (ip, "ipv4"), " slots=32\n", (ip2, "ipv4"), " slots=32 max_slots=64\n"],
        "slurm_nodeaddr": ["NodeName=gpu%02d Arch=x86_64 CoresPerSocket=32\n   NodeAddr=" % r.randint(1, 64), (ip, "ipv4"),
                           " NodeHostName=gpu%02d Version=24.05.4\n" % r.randint(1, 64)],
    }[form]
    if form == "source_status":
        parts[0] = parts[0] % (r.randint(2, 40), r.randint(1, 99999999), r.randint(0, 59), r.randint(0, 59), r.randint(10, 200))
    _seq(doc, form, parts)


def i_ipv6(r, doc, m):
    ip, ip2 = _v6(r), _v6(r)
    form = r.choice(["wireshark", "dhcpv6_lease", "networkd", "netplan", "apache_require", "pg_inet", "redis_bind",
                     "mosquitto", "syncthing", "nextcloud_log", "gitea_router", "adguard", "url_zone", "traceroute6",
                     "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, ip, "ipv6", "prose", "IPv6")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "client ip")
        _put(doc, lead, ip, "ipv6", "carrier_" + f, tail)
        return
    g = lambda: "%x" % r.randint(1, 0xffff)
    parts = {
        "wireshark": ["ipv6.src == ", (ip, "ipv6"), " && tcp.port == 443\n"],
        "dhcpv6_lease": ["ia-na \"%s\" {\n  cltt 2 2026/12/07 04:%02d:%02d;\n  iaaddr " % (_hexs(r, 24), r.randint(0, 59), r.randint(0, 59)),
                         (ip, "ipv6"), " {\n    binding state active;\n    preferred-life 27000;\n  }\n}\n"],
        "networkd": ["[Network]\nDHCP=no\nAddress=", (ip, "ipv6"), "/64\nGateway=", ("fe80::%s" % g(), "ipv6"), "\n"],
        "netplan": ["network:\n  version: 2\n  ethernets:\n    enp1s0:\n      addresses:\n        - \"", (ip, "ipv6"), "/64\"\n"],
        "apache_require": ["<Location \"/server-status\">\n    Require ip ", (ip, "ipv6"), "\n</Location>\n"],
        "pg_inet": [" user_id |     last_login_ip      \n---------+-------------------------\n     %d | " % r.randint(1, 99999),
                    (ip, "ipv6"), "/128\n"],
        "redis_bind": ["bind ", (ip, "ipv6"), " ", (ip2, "ipv6"), "\nprotected-mode yes\n"],
        "mosquitto": ["%d: New client connected from " % r.randint(1_760_000_000, 1_790_000_000), (ip, "ipv6"),
                      ":%d as shelly-%s (p2, c1, k60).\n" % (r.randint(1024, 65000), _hexs(r, 6))],
        "syncthing": ["INFO: Established secure connection to %s at [" % _s(r, UP + D, 7), (ip, "ipv6"), "]:22000-[", (ip2, "ipv6"),
                      "]:%d/quic-client\n" % r.randint(1024, 65000)],
        "nextcloud_log": ["{\"reqId\":\"%s\",\"level\":2,\"app\":\"core\",\"remoteAddr\":\"" % _s(r, AN, 20), (ip, "ipv6"),
                          "\",\"message\":\"Login failed\"}\n"],
        "gitea_router": ["router: completed GET /api/v1/repos/search for [", (ip, "ipv6"), "]:%d, 200 OK in %d.%dms\n" % (
            r.randint(1024, 65000), r.randint(1, 99), r.randint(0, 9))],
        "adguard": ["{\"QH\":\"time.example.org\",\"QT\":\"AAAA\",\"IP\":\"", (ip, "ipv6"), "\",\"Upstream\":\"https://dns.example.net/dns-query\"}\n"],
        "url_zone": ["curl -g 'http://[", ("fe80::%s:%s:%s:%s" % (g(), g(), g(), g()), "ipv6"), "%25eth0]:8123/api/'\n"],
        "traceroute6": ["traceroute6 to kiosk.example.house, 30 hops max, 80 byte packets\n %d  " % r.randint(2, 12), (ip, "ipv6"),
                        "  %d.%03d ms  %d.%03d ms\n" % (r.randint(1, 90), r.randint(0, 999), r.randint(1, 90), r.randint(0, 999))],
    }[form]
    _seq(doc, form, parts)


def _provider(r):
    """A provider token no family wrote, in its own shape and its own
    place: (name, lead, token, tail), or (name, parts, None, None) for a
    text of several items and look-alikes."""
    name = r.choice(["dbt_cloud", "cerebras", "shippo", "yandex", "akamai", "checkout_sbox", "stytch", "mailersend",
                     "paddle", "onepassword_sa", "bitwarden_sm", "honeycomb", "axiom", "adobe", "frameio", "x_bearer",
                     "freshdesk", "google_refresh", "fcm_server", "ably", "pubnub", "fal", "runpod", "voyage", "neptune",
                     "openai_admin", "aws_session", "convex", "inngest", "trigger", "cf_origin_ca", "ttn", "typesense",
                     "meilisearch", "algolia", "onesignal", "pusher", "zerotier_central", "livekit", "mux",
                     "azure_devops", "serpapi", "baseten", "sendbird", "plivo", "paystack"])
    if name == "akamai":
        # An .edgerc section: three credentials; the host shares their prefix and is a look-alike.
        mk = lambda: "akab-%s-%s" % (_s(r, LOWD, 16), _s(r, LOWD, 16))
        return name, ["[default]\nclient_secret = ", (_b64r(r, 32), "api_key"), "\nhost = ", (mk() + ".luna.akamaiapis.net", "look:akamai_host"),
                      "\naccess_token = ", (mk(), "api_key"), "\nclient_token = ", (mk(), "api_key"), "\n"], None, None
    if name == "pubnub":
        return name, ["const pubnub = new PubNub({\n  publishKey: '", ("pub-c-" + _u(r), "look:pubnub_publish_key"), "',\n  subscribeKey: '",
                      ("sub-c-" + _u(r), "look:pubnub_subscribe_key"), "',\n  secretKey: '", ("sec-c-" + _b64r(r, 36), "api_key"),
                      "',\n  userId: 'kiosk-07',\n});\n"], None, None
    if name == "algolia":
        return name, ["ALGOLIA_APP_ID=", (_s(r, UP + D, 10), "look:algolia_app_id"), "\nALGOLIA_ADMIN_API_KEY=", (_hexs(r, 32), "api_key"), "\n"], None, None
    if name == "pusher":
        return name, ["PUSHER_APP_ID=%d\nPUSHER_APP_KEY=" % r.randint(100000, 9999999), (_hexs(r, 20), "look:pusher_app_key"),
                      "\nPUSHER_APP_SECRET=", (_hexs(r, 20), "api_key"), "\nPUSHER_APP_CLUSTER=eu\n"], None, None
    if name == "livekit":
        return name, ["LIVEKIT_URL=wss://kiosk-%s.livekit.cloud\nLIVEKIT_API_KEY=" % _s(r, LOWD, 8), ("API" + _s(r, AN, 12), "look:livekit_api_key"),
                      "\nLIVEKIT_API_SECRET=", (_s(r, AN, 43), "api_key"), "\n"], None, None
    if name == "mux":
        return name, ["MUX_TOKEN_ID=", (_u(r), "look:mux_token_id"), "\nMUX_TOKEN_SECRET=", (_s(r, B64, 75), "api_key"), "\n"], None, None
    if name == "plivo":
        return name, ["client = plivo.RestClient(auth_id='", ("MA" + _s(r, UP + D, 18), "look:plivo_auth_id"), "', auth_token='",
                      (_s(r, AN, 40), "api_key"), "')\n"], None, None
    if name == "onepassword_sa":
        raw = json.dumps({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
                          "iterations": 650000, "salt": _s(r, B64URL, 22)}, "email": "%s@1passwordserviceaccounts.com" % _s(r, B32L, 13),
                          "srpX": _hexs(r, 64), "muk": {"alg": "A256GCM", "ext": True, "k": _s(r, B64URL, 43), "key_ops": ["encrypt", "decrypt"],
                          "kty": "oct", "kid": "mp"}, "secretKey": "A3-%s-%s-%s-%s-%s-%s" % (_s(r, B32, 6), _s(r, B32, 6), _s(r, B32, 5),
                          _s(r, B32, 5), _s(r, B32, 5), _s(r, B32, 5)), "throttleSecret": {"seed": _hexs(r, 64), "deviceUuid": _s(r, B32L, 26)},
                          "deviceUuid": _s(r, B32L, 26)}, separators=(",", ":"))
        return name, "export OP_SERVICE_ACCOUNT_TOKEN=", "ops_" + base64.b64encode(raw.encode()).decode().rstrip("="), "\n"
    if name == "neptune":
        raw = json.dumps({"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai", "api_key": _u(r)})
        return name, "NEPTUNE_API_TOKEN=\"", base64.b64encode(raw.encode()).decode(), "\"\n"
    if name == "freshdesk":
        # Freshdesk takes the key as the user and any password (X).
        return name, "curl -u ", _s(r, AN, 20), ":X -H \"Content-Type: application/json\" https://kiosk.freshdesk.com/api/v2/tickets\n"
    lead, tok, tail = {
        "dbt_cloud": ("DBT_CLOUD_API_TOKEN=", "dbtc_" + _s(r, AN + "_-", 48), "\n"),
        "cerebras": ("client = Cerebras(api_key=\"", "csk-" + _s(r, LOWD, 48), "\")\n"),
        "shippo": ("  -H \"Authorization: ShippoToken ", "shippo_live_" + _hexs(r, 40), "\" \\\n"),
        "yandex": ("Authorization: OAuth ", "y0_AgAAAA" + _s(r, B64URL, 48), "\n"),
        "checkout_sbox": ("CKO_SECRET_KEY=", "sk_sbox_" + _s(r, LOWD, 27), "\n"),
        "stytch": ("STYTCH_SECRET=", "secret-live-" + _s(r, AN + "_-", 34) + "=", "\n"),
        "mailersend": ("MAILERSEND_API_KEY=", "mlsn." + _hexs(r, 64), "\n"),
        "paddle": ("PADDLE_API_KEY=", "pdl_live_apikey_01" + _s(r, "0123456789abcdefghjkmnpqrstvwxyz", 24) + "_" + _s(r, AN, 27) + "_A" + _s(r, AN, 2), "\n"),
        "bitwarden_sm": ("export BWS_ACCESS_TOKEN=", "0.%s.%s:%s" % (_u(r), _s(r, AN, 30), _b64r(r, 16)), "\n"),
        "honeycomb": ("HONEYCOMB_API_KEY=", "hcaik_01" + _s(r, LOWD, 56), "\n"),
        "axiom": ("AXIOM_TOKEN=", "xaat-" + _u(r), "\n"),
        "adobe": ("ADOBE_CLIENT_SECRET=", "p8e-" + _s(r, AN + "-_", 32), "\n"),
        "frameio": ("FRAMEIO_TOKEN=", "fio-u-" + _s(r, AN + "-_", 64), "\n"),
        "x_bearer": ("curl \"https://api.x.com/2/tweets/search/recent?query=kiosk\" -H \"Authorization: Bearer ",
                     "AAAAAAAAAAAAAAAAAAAAA" + _s(r, AN, 9) + "AAAAAA" + _s(r, AN, 12) + "%2B" + _s(r, AN, 12) + "%3D" + _s(r, AN, 50), "\"\n"),
        "google_refresh": ("\"refresh_token\": \"", "1//0" + _s(r, AN, 2) + "-" + _s(r, AN + "_-", 97), "\",\n"),
        "fcm_server": ("curl -X POST -H \"Authorization: key=", "AAAA" + _s(r, AN + "_-", 7) + ":APA91b" + _s(r, AN + "_-", 134),
                       "\" https://fcm.googleapis.com/fcm/send\n"),
        "ably": ("const ably = new Ably.Realtime('", "%s.%s:%s" % (_s(r, AN + "_-", 6), _s(r, AN + "_-", 6), _s(r, AN + "_-", 43)), "');\n"),
        "fal": ("FAL_KEY=", "%s:%s" % (_u(r), _hexs(r, 32)), "\n"),
        "runpod": ("RUNPOD_API_KEY=", "rpa_" + _s(r, UP + D, 40), "\n"),
        "voyage": ("vo = voyageai.Client(api_key=\"", "pa-" + _s(r, AN + "-_", 43), "\")\n"),
        "openai_admin": ("OPENAI_ADMIN_KEY=", "sk-admin-" + _s(r, AN + "_-", 58) + "T3BlbkFJ" + _s(r, AN + "_-", 58), "\n"),
        "aws_session": ("aws_session_token = ", "FwoGZXIvYXdzE" + _s(r, B64, 290) + "==", "\n"),
        "convex": ("CONVEX_DEPLOY_KEY=", "prod:%s-%s-%d|eyJ2MiI6Ij%s" % (r.choice(["happy", "tidy", "brave", "quiet"]), r.choice(["otter", "heron", "lynx"]),
                                                                          r.randint(100, 999), _s(r, B64URL, 70)), "\n"),
        "inngest": ("INNGEST_SIGNING_KEY=", "signkey-prod-" + _hexs(r, 64), "\n"),
        "trigger": ("TRIGGER_SECRET_KEY=", "tr_prod_" + _s(r, AN, 20), "\n"),
        "cf_origin_ca": ("CF_API_KEY_ORIGIN_CA=", "v1.0-%s-%s" % (_hexs(r, 24), _hexs(r, 146)), "\n"),
        "ttn": ("ttn-lw-cli login --api-key ", "NNSXS.%s.%s" % (_s(r, B32, 39), _s(r, B32, 52)), "\n"),
        "typesense": ("  -H \"X-TYPESENSE-API-KEY: ", _s(r, AN, 32), "\" \\\n"),
        "meilisearch": ("MEILI_MASTER_KEY=", _s(r, AN + "-_", 32), "\n"),
        "onesignal": ("  -H 'Authorization: Key ", "os_v2_app_" + _s(r, B32L, 104), "' \\\n"),
        "zerotier_central": ("curl -H \"Authorization: token ", _s(r, AN, 32), "\" https://api.zerotier.com/api/v1/network\n"),
        "azure_devops": ("AZURE_DEVOPS_EXT_PAT=", _s(r, "abcdefghijklmnopqrstuvwxyz234567", 52), "\n"),
        "serpapi": ("GET https://serpapi.com/search.json?engine=google&q=kiosk&api_key=", _hexs(r, 64), "\n"),
        "baseten": ("  -H \"Authorization: Api-Key ", "%s.%s" % (_s(r, AN, 8), _s(r, AN, 32)), "\" \\\n"),
        "sendbird": ("  -H \"Api-Token: ", _hexs(r, 40), "\" \\\n"),
        "paystack": ("PAYSTACK_SECRET_KEY=", "sk_live_" + _hexs(r, 40), "\n"),
    }[name]
    return name, lead, tok, tail


def i_api_key(r, doc, m):
    t = _tok(r, r.randint(24, 40))
    pw = _pw(r)
    form = r.choice([
        "sonarr", "transmission", "gitea_secret", "synapse", "authelia", "nodered_cred", "nextcloud", "paperless",
        "mastodon", "vapid", "vaultwarden", "jellyfin", "plex", "frigate", "zigbee2mqtt", "mosquitto_bridge", "yggdrasil",
        "zerotier_identity", "tor_onion", "synapse_signing", "minisign", "slurmdbd", "nextflow_secret", "datadog",
        "newrelic", "otel_basic", "source_rcon", "factorio", "teamspeak", "valheim", "palworld", "ark", "chirpstack",
        "provider", "provider", "provider", "provider", "provider", "provider", "provider", "prose"])
    if form == "prose":
        _prose(r, doc, pw, "api_key", "prose", "password")
        return
    if form == "provider":
        name, lead, tok, tail = _provider(r)
        while tok is None and any(isinstance(p, tuple) and p[1].startswith("look:") and _cardish(p[0]) for p in lead):
            name, lead, tok, tail = _provider(r)
        if tok is None:
            for p in lead:
                if isinstance(p, tuple) and p[1].startswith("look:"):
                    doc.look(p[0], p[1][5:])
                elif isinstance(p, tuple):
                    doc.item(p[0], p[1], "t_provider_" + name)
                else:
                    doc.t(p)
        else:
            _put(doc, lead, tok, "api_key", "provider_" + name, tail)
        return
    if form == "zerotier_identity":
        # address:0:public:private; the public half is a look-alike.
        doc.t("$ sudo cat /var/lib/zerotier-one/identity.secret\n%s:0:" % _hexs(r, 10))
        _look(r, doc, lambda: _hexs(r, 128), "zerotier_public")
        doc.t(":")
        doc.item(_hexs(r, 128), "api_key", "t_zerotier_identity")
        doc.t("\n")
        return
    if form == "yggdrasil":
        doc.t("{\n  PublicKey: ")
        _look(r, doc, lambda: _hexs(r, 64), "yggdrasil_public")
        doc.t("\n  PrivateKey: ")
        doc.item(_hexs(r, 128), "api_key", "t_yggdrasil")
        doc.t("\n  Peers: [\"tls://peer.example.net:443\"]\n}\n")
        return
    if form == "chirpstack":
        # A LoRaWAN device: the EUIs are ids (look-alikes), the AppKey a root key.
        doc.t("{\"deviceKeys\": {\"devEui\": \"")
        _look(r, doc, lambda: _hexs(r, 16), "lorawan_deveui")
        doc.t("\", \"nwkKey\": \"")
        doc.item(_hexs(r, 32), "api_key", "t_chirpstack")
        doc.t("\"}, \"joinEui\": \"")
        _look(r, doc, lambda: _hexs(r, 16), "lorawan_joineui")
        doc.t("\"}\n")
        return
    lead, v, tail = {
        "sonarr": ("<Config>\n  <BindAddress>*</BindAddress>\n  <Port>8989</Port>\n  <ApiKey>", _hexs(r, 32), "</ApiKey>\n  <AuthenticationMethod>Forms</AuthenticationMethod>\n"),
        "transmission": ("    \"rpc-authentication-required\": true,\n    \"rpc-password\": \"", pw, "\",\n    \"rpc-username\": \"kiosk\",\n"),
        "gitea_secret": ("[security]\nINSTALL_LOCK = true\nSECRET_KEY = ", _tok(r, 64), "\n"),
        "synapse": (r.choice(["registration_shared_secret: \"", "macaroon_secret_key: \"", "form_secret: \""]), _s(r, AN + ",.;~", 50), "\"\n"),
        "authelia": (r.choice(["identity_validation:\n  reset_password:\n    jwt_secret: '", "session:\n  secret: '", "storage:\n  encryption_key: '"]),
                     _tok(r, 64), "'\n"),
        "nodered_cred": ("{\"%s.%s\": {\"user\": \"kiosk\", \"password\": \"" % (_hexs(r, 8), _hexs(r, 5)), pw, "\"}}\n"),
        "nextcloud": (r.choice(["  'dbpassword' => '", "  'secret' => '", "  'mail_smtppassword' => '"]), pw, "',\n"),
        "paperless": ("PAPERLESS_SECRET_KEY=", _tok(r, 50), "\n"),
        "mastodon": (r.choice(["SECRET_KEY_BASE=", "OTP_SECRET="]), _hexs(r, 128), "\n"),
        "vapid": ("VAPID_PRIVATE_KEY=", _b64r(r, 32, url=True), "\n"),
        "vaultwarden": ("  vaultwarden:\n    environment:\n      ADMIN_TOKEN: ", _tok(r, 48), "\n"),
        "jellyfin": ("GET /Items?Recursive=true&api_key=", _hexs(r, 32), " HTTP/1.1\n"),
        "plex": ("https://plex.example.house:32400/library/sections?X-Plex-Token=", _s(r, AN + "_-", 20), "\n"),
        "frigate": ("mqtt:\n  host: mqtt.example.house\n  user: frigate\n  password: ", pw, "\n"),
        "zigbee2mqtt": ("mqtt:\n  base_topic: zigbee2mqtt\n  user: z2m\n  password: ", pw, "\n"),
        "mosquitto_bridge": ("connection cloud-bridge\naddress broker.example.net:8883\nremote_username kiosk\nremote_password ", pw, "\ntopic sensors/# out 1\n"),
        "tor_onion": ("250-ServiceID=%s\n250-PrivateKey=ED25519-V3:" % _s(r, B32L, 56), _b64r(r, 64), "\n250 OK\n"),
        "synapse_signing": ("$ cat /data/example.house.signing.key\ned25519 a_%s " % _s(r, AN, 4), _b64r(r, 32, pad=False), "\n"),
        "minisign": ("untrusted comment: minisign encrypted secret key\n", "RWRTY0Iy" + _s(r, B64, 204), "\n"),
        "slurmdbd": ("StorageType=accounting_storage/mysql\nStorageUser=slurm\nStoragePass=", pw, "\n"),
        "nextflow_secret": ("nextflow secrets set AWS_SECRET_ACCESS_KEY ", _tok(r, 40, AN + "/+"), "\n"),
        "datadog": ("## @param api_key - string - required\napi_key: ", _hexs(r, 32), "\nsite: datadoghq.eu\n"),
        "newrelic": ("common: &default_settings\n  license_key: '", _hexs(r, 36) + "NRAL", "'\n  app_name: kiosk-api\n"),
        "otel_basic": ("exporters:\n  otlphttp:\n    endpoint: https://otlp.example.net\n    headers:\n      authorization: \"Basic ",
                       base64.b64encode(("kiosk:" + pw).encode()).decode(), "\"\n"),
        "source_rcon": ("hostname \"Kiosk LAN\"\nsv_lan 0\nrcon_password \"", pw, "\"\n"),
        "factorio": ("  \"game_password\": \"\",\n  \"username\": \"kiri\",\n  \"token\": \"", _hexs(r, 30), "\",\n"),
        "teamspeak": ("$ telnet ts.example.house 10011\nlogin serveradmin ", pw, "\nerror id=0 msg=ok\n"),
        "valheim": ("./valheim_server.x86_64 -name \"Kiosk\" -port 2456 -world \"Dedicated\" -password \"", pw, "\" -public 0\n"),
        "palworld": ("[/Script/Pal.PalGameWorldSettings]\nOptionSettings=(Difficulty=None,AdminPassword=\"", pw, "\",ServerPlayerMaxNum=16)\n"),
        "ark": ("ShooterGameServer TheIsland?listen?SessionName=Kiosk?ServerAdminPassword=", pw, " -server -log\n"),
    }[form]
    _put(doc, lead, v, "api_key", form, tail)


def i_jwt(r, doc, m):
    form = r.choice(["iap_header", "cf_access", "alb_oidc", "aad_header", "jar_request", "vp_token", "nats_creds", "gitea_internal",
                     "hass_llat", "supabase_service", "carrier", "carrier", "prose"])
    if form == "prose":
        _prose(r, doc, _jwt(r), "jwt", "prose", "token")
        return
    if form == "carrier":
        f, lead, tail = _carrier(r, "session token")
        _put(doc, lead, _jwt(r), "jwt", "carrier_" + f, tail)
        return
    if form == "nats_creds":
        # A NATS user credentials file: the user JWT, then its NKEY seed in
        # NATS's own armour (six dashes closing each END line).
        body = {"jti": _s(r, B32, 52), "iat": r.randint(1_760_000_000, 1_790_000_000), "iss": "A" + _s(r, B32, 55),
                "name": "kiosk", "sub": "U" + _s(r, B32, 55),
                "nats": {"pub": {}, "sub": {}, "subs": -1, "data": -1, "payload": -1, "type": "user", "version": 2}}
        j = _jwt(r, alg="ed25519-nkey", body=body, typ="JWT")
        seed = "SU" + _s(r, B32, 56)
        _seq(doc, form, ["-----BEGIN NATS USER JWT-----\n", (j, "jwt"), "\n------END NATS USER JWT------\n\n"
                         "************************* IMPORTANT *************************\n"
                         "NKEY Seed printed below can be used to sign and prove identity.\n"
                         "NKEYs are sensitive and should be treated as secrets.\n\n",
                         ("-----BEGIN USER NKEY SEED-----\n%s\n------END USER NKEY SEED------" % seed, "private_key"),
                         "\n\n*************************************************************\n"])
        return
    if form == "vp_token":
        # An SD-JWT: the issuer-signed JWT, then its disclosures, each ending in `~`.
        j = _jwt(r, alg=r.choice(["ES256", "ES384"]), typ="vc+sd-jwt")
        discs = "".join(_b64u(json.dumps([_s(r, B64URL, 22), k, v])) + "~" for k, v in
                        r.sample([("given_name", "Keisha"), ("family_name", "Baptiste"), ("birthdate", "1990-04-02"), ("nationality", "JM")], 2))
        _put(doc, "POST /presentation HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nvp_token=", j + "~" + discs, "jwt", form,
             "&state=%s\n" % _s(r, B64URL, 22))
        return
    if form == "alb_oidc":
        # The AWS load balancer signs its user claims with ES256 and keeps base64 padding.
        j = _jwt(r, alg="ES256", typ="JWT", pad=True, body={"sub": _u(r), "email_verified": "true", "exp": r.randint(1_760_000_000, 1_790_000_000),
                                                           "iss": "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_%s" % _s(r, AN, 9)})
        _put(doc, "x-amzn-oidc-identity: %s\nx-amzn-oidc-data: " % _u(r), j, "jwt", form, "\n")
        return
    if form == "gitea_internal":
        j = _jwt(r, alg="HS256", typ="JWT", body={"nbf": r.randint(1_760_000_000, 1_790_000_000)})
        _put(doc, "[security]\nINTERNAL_TOKEN = ", j, "jwt", form, "\nPASSWORD_HASH_ALGO = pbkdf2\n")
        return
    if form == "hass_llat":
        iat = r.randint(1_760_000_000, 1_790_000_000)
        j = _jwt(r, alg="HS256", typ="JWT", body={"iss": _hexs(r, 32), "iat": iat, "exp": iat + 315360000})
        _put(doc, "curl -H \"Authorization: Bearer ", j, "jwt", form, "\" -H \"Content-Type: application/json\" https://ha.example.house/api/states\n")
        return
    if form == "supabase_service":
        iat = r.randint(1_700_000_000, 1_760_000_000)
        j = _jwt(r, alg="HS256", typ="JWT", body={"iss": "supabase", "ref": _s(r, LOW, 20), "role": "service_role", "iat": iat, "exp": iat + 315360000})
        _put(doc, "SUPABASE_SERVICE_ROLE_KEY=", j, "jwt", form, "\n")
        return
    lead, tail = {
        "iap_header": ("X-Goog-Authenticated-User-Email: accounts.google.com:kiri\nX-Goog-IAP-JWT-Assertion: ", "\n"),
        "cf_access": ("cf-access-authenticated-user-email: kiri\nCf-Access-Jwt-Assertion: ", "\n"),
        "aad_header": ("X-MS-CLIENT-PRINCIPAL-NAME: kiri\nX-MS-TOKEN-AAD-ID-TOKEN: ", "\n"),
        "jar_request": ("GET /authorize?client_id=kiosk-app&request=", "&response_type=code HTTP/1.1\n"),
    }[form]
    _put(doc, lead, _jwt(r), "jwt", form, tail)


def _rsa_xml(r, private=True):
    parts = [("Modulus", _b64r(r, 256)), ("Exponent", "AQAB")]
    if private:
        parts += [("P", _b64r(r, 128)), ("Q", _b64r(r, 128)), ("DP", _b64r(r, 128)), ("DQ", _b64r(r, 128)),
                  ("InverseQ", _b64r(r, 128)), ("D", _b64r(r, 256))]
    return "<RSAKeyValue>" + "".join("<%s>%s</%s>" % (k, v, k) for k, v in parts) + "</RSAKeyValue>"


def i_private_key(r, doc, m):
    kind = r.choice(["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "])
    label = kind.strip().lower() or "pkcs8"
    form = r.choice(["rsa_xml", "jwk_d", "nebula", "pkcs12_b64", "qp_mail", "ansi_c", "html_br", "twig_block", "kql_let",
                     "butane", "nomad_tpl", "prose"])
    if form == "rsa_xml":
        # .NET's XML form of an RSA key: the private parameters make it a private key.
        _put(doc, r.choice(["<add key=\"SigningKey\" value=\"", "  \"RsaKeyXml\": \""]), _rsa_xml(r), "private_key", form,
             r.choice(["\" />\n", "\",\n"]))
        return
    if form == "jwk_d":
        # An EC or OKP JWK: `d` is the private key, the rest public.
        crv = r.choice(["P-256", "Ed25519", "X25519"])
        if crv == "P-256":
            doc.t("{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"%s\",\"y\":\"%s\",\"d\":\"" % (_b64r(r, 32, url=True, pad=False), _b64r(r, 32, url=True, pad=False)))
        else:
            doc.t("{\"kty\":\"OKP\",\"crv\":\"%s\",\"x\":\"%s\",\"d\":\"" % (crv, _b64r(r, 32, url=True, pad=False)))
        doc.item(_b64r(r, 32, url=True, pad=False), "private_key", "t_jwk_d_" + crv.lower())
        doc.t("\",\"kid\":\"%s\"}\n" % _s(r, B64URL, 16))
        return
    if form == "nebula":
        which = r.choice(["X25519", "ED25519"])
        doc.t("$ cat /etc/nebula/host.key\n")
        doc.item("-----BEGIN NEBULA %s PRIVATE KEY-----\n%s\n-----END NEBULA %s PRIVATE KEY-----" % (
            which, _b64r(r, 32 if which == "X25519" else 64), which), "private_key", "t_nebula_" + which.lower())
        doc.t("\n$ cat /etc/nebula/host.pub\n")
        _look(r, doc, lambda: "-----BEGIN NEBULA X25519 PUBLIC KEY-----\n%s\n-----END NEBULA X25519 PUBLIC KEY-----" % _b64r(r, 32), "nebula_public")
        doc.t("\n")
        return
    if form == "pkcs12_b64":
        _put(doc, "{\n  \"contentType\": \"application/x-pkcs12\",\n  \"id\": \"https://kiosk-kv.vault.azure.net/secrets/tls/%s\",\n  \"value\": \"" % _hexs(r, 32),
             "MIIK" + _s(r, B64, 1) + "AgEDMIIK" + _s(r, B64, r.randint(600, 1100)) + r.choice(["", "=", "=="]), "private_key", form, "\"\n}\n")
        return
    lines = _pem_lines(r, kind)
    if form == "qp_mail":
        # Quoted-printable turns each `=` of the padding into `=3D`.
        v = "\n".join(lines).replace("=", "=3D")
        lead = "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nHere is the key for the kiosk:\n\n"
        tail = "\n\nDelete this mail after you saved it.\n"
    elif form == "ansi_c":
        v = "\\n".join(lines)
        lead, tail = "export KIOSK_TLS_KEY=$'", "\\n'\n"
    elif form == "html_br":
        v = r.choice(["<br>", "<br />", "<br/>\n"]).join(lines)
        lead, tail = "<div class=\"comment-body\"><p>", "</p></div>\n"
    elif form == "twig_block":
        v = "\n".join(lines)
        lead, tail = "{% set tls_key %}\n", "\n{% endset %}\n"
    elif form == "kql_let":
        v = "\\n".join(lines)
        lead, tail = "let signingKey = \"", "\";\n"
    elif form == "butane":
        v = "\n".join(lines).replace("\n", "\n            ")
        lead, tail = "storage:\n  files:\n    - path: /etc/kiosk/tls.key\n      mode: 0600\n      contents:\n        inline: |\n            ", "\n"
    elif form == "nomad_tpl":
        v = "\n".join(lines)
        lead, tail = "      template {\n        destination = \"secrets/tls.key\"\n        data        = <<-EOT\n", "\nEOT\n      }\n"
    else:
        lang = r.choice(sorted(PROSE))
        p_lead, p_tail = PROSE[lang].split("{}")
        lead, v, tail = p_lead + "key:\n", "\n".join(lines), "\n" + p_tail + "\n"
        form = "prose_" + lang
    _put(doc, lead, v, "private_key", "%s_%s" % (form, label), tail)


def i_url(r, doc, m):
    pw = _url_pw(r)
    form = r.choice(["ntfy", "matrix", "rocket", "nctalk", "json", "xml", "apprise_mailto", "signal", "ses_smtp", "gmail_smtp",
                     "mailjet", "twilio", "vonage", "sinch", "athena", "singlestore", "pg8000", "mysqlconnector", "ibm_db",
                     "monetdb", "dremio", "valkey", "rethinkdb", "scp", "dict", "prose"])
    if form == "prose":
        lang = r.choice(sorted(PROSE))
        lead, tail = PROSE[lang].split("{}")
        _put(doc, lead + "ntfy://kiosk:", pw, "url_credentials", "prose_" + lang, "@ntfy.example.house/alerts " + tail + "\n")
        return
    if form == "athena":
        # The user is an AWS key id, the password its secret (slash and plus encoded).
        secret = _s(r, AN, 28) + "%2F" + _s(r, AN, 5) + "%2B" + _s(r, AN, 5)
        _seq(doc, form, ["engine = create_engine(\"awsathena+rest://", ("AKIA" + _s(r, UP + "234567", 16), "api_key"), ":", (secret, "url_credentials"),
                         "@athena.eu-west-1.amazonaws.com:443/analytics?s3_staging_dir=s3%3A%2F%2Fkiosk-athena%2Fresults%2F\")\n"])
        return
    if form == "ses_smtp":
        _seq(doc, form, ["MAILER_DSN=ses+smtp://", ("AKIA" + _s(r, UP + "234567", 16), "api_key"), ":", (_s(r, AN + "/+", 44), "url_credentials"),
                         "@default?region=eu-west-1\n"])
        return
    if form == "signal":
        cc, mk = _phone(r)
        _seq(doc, form, ["  - signal://kiosk:", (pw, "url_credentials"), "@signal-api.example.house:8080/", (_e164(mk(r)), "phone"), "\n"])
        return
    if form == "twilio":
        cc, mk = _phone(r)
        doc.t("NOTIFIER_DSN=twilio://")
        _look(r, doc, lambda: "AC" + _hexs(r, 32), "twilio_account_sid")
        doc.t(":")
        doc.item(_hexs(r, 32), "url_credentials", "t_twilio")
        doc.t("@default?from=")
        doc.item(_e164(mk(r)), "phone", "t_twilio")
        doc.t("\n")
        return
    if form == "mailjet":
        doc.t("MAILER_DSN=mailjet+api://")
        _look(r, doc, lambda: _hexs(r, 32), "mailjet_api_key_id")
        doc.t(":")
        doc.item(_hexs(r, 32), "url_credentials", "t_mailjet")
        doc.t("@default\n")
        return
    if form == "vonage":
        doc.t("VONAGE_DSN=vonage://")
        _look(r, doc, lambda: _hexs(r, 8), "vonage_api_key_id")
        doc.t(":")
        doc.item(_s(r, AN, 16), "url_credentials", "t_vonage")
        doc.t("@default?from=KIOSK\n")
        return
    if form == "sinch":
        doc.t("SINCH_DSN=sinch://")
        _look(r, doc, lambda: _hexs(r, 32), "sinch_service_plan_id")
        doc.t(":")
        doc.item(_hexs(r, 32), "url_credentials", "t_sinch")
        doc.t("@default?from=KIOSK\n")
        return
    if form == "gmail_smtp":
        pw = _s(r, LOW, 16)
    lead, tail = {
        "ntfy": ("  - ntfy://kiosk:", "@ntfy.example.house/freezer-alerts\n"),
        "matrix": ("apprise -vv -b \"Backup failed\" 'matrix://kiosk:", "@matrix.example.house/#ops'\n"),
        "rocket": ("urls:\n  - rocket://alerts:", "@chat.example.house/#monitoring\n"),
        "nctalk": ("APPRISE_URLS=nctalk://kiosk:", "@cloud.example.house/%s\n" % _s(r, LOWD, 8)),
        "json": ("  - json://hooks:", "@hooks.example.house:8443/notify\n"),
        "xml": ("  - xml://hooks:", "@hooks.example.house/notify.xml\n"),
        "apprise_mailto": ("apprise -t 'Disk full' -b 'nas01 at 97%' 'mailto://kiosk.alerts:", "@smtp.example.house?to=ops'\n"),
        "gmail_smtp": ("MAILER_DSN=gmail+smtp://kiosk.alerts:", "@default\n"),
        "singlestore": ("SINGLESTORE_URL=singlestoredb://admin:", "@svc-%s-dml.aws-virginia-6.svc.singlestore.com:3306/kiosk\n" % _u(r)[:8]),
        "pg8000": ("engine = create_engine(\"postgresql+pg8000://etl:", "@pg.example.house:5432/warehouse\")\n"),
        "mysqlconnector": ("SQLALCHEMY_DATABASE_URI = \"mysql+mysqlconnector://kiosk:", "@mysql.example.house:3306/kiosk\"\n"),
        "ibm_db": ("db2_uri = 'ibm_db_sa://db2inst1:", "@db2.example.house:50000/SAMPLE'\n"),
        "monetdb": ("conn = pymonetdb.connect(\"monetdb://monetdb:", "@monet.example.house:50000/voc\")\n"),
        "dremio": ("DREMIO_URL=dremio+flight://analyst:", "@dremio.example.house:32010/dremio?UseEncryption=true\n"),
        "valkey": ("CACHE_URL=valkey://:", "@valkey.example.house:6379/2\n"),
        "rethinkdb": ("RETHINKDB_URL=rethinkdb://admin:", "@rethink.example.house:28015/kiosk\n"),
        "scp": ("curl -T backup.tar.zst scp://backup:", "@nas.example.house/volume1/backups/\n"),
        "dict": ("curl dict://kiosk:", "@dict.example.house/d:heldout\n"),
    }[form]
    _put(doc, lead, pw, "url_credentials", form, tail)


# ------------------------------------------------------------ look-alikes

def _digit_groups(s):
    """Runs of digits and, between them, the one character that splits
    them (None where more than one character or another kind does)."""
    groups, seps, cur, k = [], [], "", 0
    while k < len(s):
        c = s[k]
        if c.isdigit() and c.isascii():
            cur += c
        else:
            if cur:
                groups.append(cur)
                cur = ""
                nxt = s[k + 1:k + 2]
                seps.append(c if c in " -./" and nxt.isdigit() else None)
        k += 1
    if cur:
        groups.append(cur)
    return groups, seps


def _cardish(s):
    """Whether some run of `s`'s digits (solid, or consecutive groups split
    by one space, dash, dot or slash) of 12 to 19 digits passes Luhn."""
    groups, seps = _digit_groups(s)
    for a in range(len(groups)):
        run = ""
        for b in range(a, len(groups)):
            if b > a and (b - 1 >= len(seps) or seps[b - 1] is None):
                break
            run += groups[b]
            if len(run) > 19:
                break
            if 12 <= len(run) and _luhn_ok(run):
                return True
    return False


def _look(r, doc, make, kind):
    """A look-alike beside an item, drawn again until no run of its digits
    passes as a card number."""
    while True:
        v = make()
        if not _cardish(v):
            doc.look(v, kind)
            return


def _synop(r):
    """A SYNOP report's groups (WMO FM 12): station, cloud and wind, temperature, pressure."""
    return "AAXX %02d%02d1 %05d %d%d%d%02d %d%02d%02d 1%d%03d 2%d%03d 3%04d 4%04d=" % (
        r.randint(1, 28), r.choice([0, 6, 12, 18]), r.randint(1000, 99999), r.choice([1, 3]), r.randint(1, 4), r.randint(1, 9),
        r.randint(0, 99), r.randint(0, 8), r.randint(0, 36), r.randint(0, 40), r.randint(0, 1), r.randint(0, 350),
        r.randint(0, 1), r.randint(0, 300), r.randint(9500, 9999), r.randint(9800, 9999) if r.random() < 0.5 else r.randint(0, 300))


def i_look(r, doc, m):
    q = r.randint
    hexid = lambda n: _hexs(r, n)
    kind = r.choice([
        # Tokens' prefixes in names, and public halves.
        "npm_env", "hf_hub", "scan_rule", "expo_push", "cf_account_id", "nats_public", "matrix_verify_key", "rsa_xml_public",
        "vercel_ids", "supabase_ref", "firestore_id",
        # WebAuthn.
        "webauthn_client_data", "webauthn_auth_data", "webauthn_signature", "webauthn_credential_id", "webauthn_attestation",
        # Integrity and signatures.
        "ws_key", "ws_accept", "content_digest", "http_signature", "goog_hash", "dkim_sig", "dig_cookie", "ds_record",
        "tlsa_record", "sshfp_record",
        # Ciphertext and hashes.
        "jasypt", "eyaml", "chef_encrypted", "rails_credentials", "laravel_encrypted", "k8s_aescbc", "dpapi",
        "mosquitto_hash", "adguard_hash", "imphash", "blurhash", "chromaprint", "phash", "simhash",
        # Documents and boards.
        "gdocs", "gsheets", "gdrive", "notion", "figma", "miro", "loom", "confluence",
        # Social.
        "bsky_did", "atproto_tid", "linkedin_urn", "tiktok", "instagram", "reddit", "hn_item",
        # Science.
        "gaia", "twomass", "sdss", "tic", "hd", "mpc", "sexagesimal", "synop", "nct", "refseq", "genbank", "chebi",
        "kegg", "reactome", "snomed", "atc", "gs1_element",
        # Places.
        "osgb", "jp_mesh", "e7", "gars", "gauss_kruger", "jp_postcode", "pl_postcode", "pt_postcode",
        # Compliance and law.
        "cis_control", "iso27001", "pci_req", "nist_control", "ecli", "celex", "usc", "cfr", "fed_register", "ep_patent",
        "wo_patent", "threegpp", "iec",
        # Money and dates in other digits.
        "amount_arab", "amount_pers", "amount_deva", "amount_thai", "date_pers", "date_thai", "date_jp_era",
        # Phone and card groupings that are neither.
        "lotto", "ss7_point_code", "sort_code", "banknote", "osi_option", "ticker",
        # Versions and advisories.
        "go_pseudo", "maven_snapshot", "pep440_local", "conda_build", "rpm_nevra", "git_describe", "osv", "rhsa", "usn",
        "dsa",
        # @ and / shapes.
        "irc_hostmask", "perforce_rev"])
    if kind in ("nats_public", "rsa_xml_public", "matrix_verify_key"):
        v = {"nats_public": lambda: "U" + _s(r, B32, 55),
             "rsa_xml_public": lambda: _rsa_xml(r, private=False),
             "matrix_verify_key": lambda: _b64r(r, 32, pad=False)}[kind]()
        lead, tail = {"nats_public": ("$ nsc describe user kiosk\n| User ID  | ", " |\n"),
                      "rsa_xml_public": ("<PublicKey>", "</PublicKey>\n"),
                      "matrix_verify_key": ("{\"server_name\": \"example.house\", \"verify_keys\": {\"ed25519:a_%s\": {\"key\": \"" % _s(r, AN, 4),
                                            "\"}}}\n")}[kind]
        doc.t(lead)
        doc.look(v, kind)
        doc.t(tail)
        return
    cd = lambda o: base64.urlsafe_b64encode(json.dumps(o, separators=(",", ":")).encode()).decode().rstrip("=")
    lead, v, tail = {
        "npm_env": ("echo \"$", r.choice(["npm_config_user_agent", "npm_package_devDependencies_typescript", "npm_lifecycle_script",
                                         "npm_config_global_prefix", "npm_package_json", "npm_config_registry"]), "\"\n"),
        "hf_hub": ("from huggingface_hub import ", r.choice(["hf_hub_download", "hf_hub_url", "hf_hub_download as download"]), "\n"),
        "scan_rule": ("  regex = '''", r.choice(["ghp_[0-9a-zA-Z]{36}", "xox[baprs]-[0-9a-zA-Z-]{10,48}", "AKIA[0-9A-Z]{16}",
                                                "glpat-[0-9a-zA-Z_-]{20}", "sk-[a-zA-Z0-9]{48}"]), "'''\n"),
        "expo_push": ("{\"to\": \"", "ExponentPushToken[" + _s(r, AN + "-_", 22) + "]", "\", \"title\": \"Order ready\"}\n"),
        "cf_account_id": ("account_id = \"", hexid(32), "\"\nworkers_dev = true\n"),
        "vercel_ids": ("{\"projectId\":\"", "prj_" + _s(r, AN, 28), "\",\"orgId\":\"team_%s\"}\n" % _s(r, AN, 24)),
        "supabase_ref": ("SUPABASE_URL=https://", _s(r, LOW, 20) + ".supabase.co", "\n"),
        "firestore_id": ("db.collection('orders').doc('", _s(r, AN, 20), "')\n"),
        # WebAuthn payloads: none is a credential a redactor must remove.
        "webauthn_client_data": ("\"clientDataJSON\": \"", cd({"type": "webauthn.get", "challenge": _s(r, B64URL, 43),
                                                               "origin": "https://kiosk.example.house", "crossOrigin": False}), "\",\n"),
        "webauthn_auth_data": ("\"authenticatorData\": \"", _b64r(r, 37, url=True, pad=False), "\",\n"),
        "webauthn_signature": ("\"signature\": \"", "MEUCI" + _s(r, B64URL, 90), "\",\n"),
        "webauthn_credential_id": ("\"rawId\": \"", _b64r(r, r.choice([16, 32, 64]), url=True, pad=False), "\",\n"),
        "webauthn_attestation": ("\"attestationObject\": \"", "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjF" + _s(r, B64URL, 240), "\",\n"),
        "ws_key": ("Sec-WebSocket-Key: ", _b64r(r, 16), "\n"),
        "ws_accept": ("Sec-WebSocket-Accept: ", _b64r(r, 20), "\n"),
        "content_digest": ("Content-Digest: sha-256=:", _b64r(r, 32), ":\n"),
        "http_signature": ("Signature-Input: sig1=(\"@method\" \"@authority\");created=%d;keyid=\"kiosk\"\nSignature: sig1=:" % q(1_760_000_000, 1_790_000_000),
                           _b64r(r, 64), ":\n"),
        "goog_hash": ("x-goog-hash: crc32c=", _b64r(r, 4) + ",md5=" + _b64r(r, 16), "\n"),
        "dkim_sig": ("DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.house; s=kiosk; h=from:to:subject:date;\n\t",
                     "bh=%s; b=%s" % (_b64r(r, 32), _b64r(r, 256)), "\n"),
        "dig_cookie": ("; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n; COOKIE: ", hexid(16) + hexid(48), " (good)\n"),
        "ds_record": ("example.house. 3600 IN DS ", "%d 13 2 %s" % (q(1000, 65535), _hexs(r, upper=True, n=64)), "\n"),
        "tlsa_record": ("_443._tcp.kiosk.example.house. IN TLSA ", "3 1 1 " + hexid(64), "\n"),
        "sshfp_record": ("kiosk.example.house. IN SSHFP ", "4 2 " + hexid(64), "\n"),
        "jasypt": ("spring.datasource.password=", "ENC(" + _b64r(r, r.choice([32, 48])) + ")", "\n"),
        "eyaml": ("kiosk::db_password: >\n    ", "ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBADAFMAACAQEw" + _s(r, B64, 300) + "]", "\n"),
        "chef_encrypted": ("  \"password\": {\n    \"encrypted_data\": \"", _b64r(r, 32), "\",\n    \"iv\": \"%s\",\n    \"auth_tag\": \"%s\",\n    \"version\": 3,\n    \"cipher\": \"aes-256-gcm\"\n  }\n" % (
            _b64r(r, 12), _b64r(r, 16))),
        "rails_credentials": ("$ cat config/credentials.yml.enc\n", "%s--%s--%s" % (_b64r(r, 120), _b64r(r, 12), _b64r(r, 16)), "\n"),
        "laravel_encrypted": ("\"payload\": \"", base64.b64encode(json.dumps({"iv": _b64r(r, 16), "value": _b64r(r, 48), "mac": hexid(64), "tag": ""},
                                                                           separators=(",", ":")).encode()).decode(), "\"\n"),
        "k8s_aescbc": ("$ etcdctl get /registry/secrets/default/kiosk | hexdump -C | head -1\n", "k8s:enc:aescbc:v1:key1:" + _s(r, B64, 64), "\n"),
        "dpapi": ("PS> $s | ConvertFrom-SecureString\n", "01000000d08c9ddf0115d1118c7a00c04fc297eb01000000" + hexid(r.choice([280, 344])), "\n"),
        "mosquitto_hash": ("kiosk:", "$7$101$" + _b64r(r, 12) + "$" + _b64r(r, 64), "\n"),
        "adguard_hash": ("users:\n  - name: admin\n    password: ", "$2y$10$" + _s(r, AN + "./", 53), "\n"),
        "imphash": ("\"imphash\": \"", hexid(32), "\",\n"),
        "blurhash": ("<img data-blurhash=\"", _s(r, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~", 28), "\" />\n"),
        "chromaprint": ("FINGERPRINT=", "AQAD" + _s(r, B64URL, 180), "\n"),
        "phash": ("phash=", hexid(16), " dhash=%s\n" % hexid(16)),
        "simhash": ("\"simhash\": ", str(q(10 ** 19, 2 ** 64 - 1)), ",\n"),
        "gdocs": ("https://docs.google.com/document/d/", "1" + _s(r, AN + "-_", 43), "/edit\n"),
        "gsheets": ("SPREADSHEET_ID = '", "1" + _s(r, AN + "-_", 43), "'\n"),
        "gdrive": ("https://drive.google.com/drive/folders/", "1" + _s(r, AN + "-_", 32), "\n"),
        "notion": ("https://www.notion.so/kiosk/Runbook-", hexid(32), "\n"),
        "figma": ("https://www.figma.com/design/", _s(r, AN, 22), "/Kiosk-UI?node-id=%d-%d\n" % (q(1, 999), q(1, 9999))),
        "miro": ("https://miro.com/app/board/", "uXjV" + _s(r, AN, 7) + "=", "/\n"),
        "loom": ("https://www.loom.com/share/", hexid(32), "\n"),
        "confluence": ("https://kiosk.atlassian.net/wiki/spaces/OPS/pages/", str(q(100_000_000, 4_999_999_999)), "/Runbook\n"),
        "bsky_did": ("\"did\": \"", "did:plc:" + _s(r, B32L, 24), "\",\n"),
        "atproto_tid": ("at://did:plc:%s/app.bsky.feed.post/" % _s(r, B32L, 24), "3l" + _s(r, "234567abcdefghijklmnopqrstuvwxyz", 11), "\n"),
        "linkedin_urn": ("\"object\": \"", "urn:li:activity:7" + _d(r, 18), "\",\n"),
        "tiktok": ("https://www.tiktok.com/@kiosk.example/video/", "7" + _d(r, 18), "\n"),
        "instagram": ("\"media_id\": \"", "3" + _d(r, 18) + "_" + _d(r, 10), "\",\n"),
        "reddit": ("\"name\": \"", "t3_1" + _s(r, LOWD, 6), "\",\n"),
        "hn_item": ("https://news.ycombinator.com/item?id=", str(q(40_000_000, 46_000_000)), "\n"),
        "gaia": ("", "Gaia DR3 " + str(q(10 ** 17, 6_917_528_997_577_384_319)), "\n"),
        "twomass": ("", "2MASS J%02d%02d%04d%s%02d%02d%03d" % (q(0, 23), q(0, 59), q(0, 5999), r.choice("+-"), q(0, 89), q(0, 59), q(0, 599)), "\n"),
        "sdss": ("objid = ", "1237" + _d(r, 15), "\n"),
        "tic": ("", "TIC %d" % q(1_000_000, 2_000_000_000), " b\n"),
        "hd": ("host star ", "HD %d" % q(1, 359_083), "\n"),
        "mpc": ("asteroid ", "%d %s%s%d" % (q(1990, 2026), r.choice(UP), r.choice(UP.replace("I", "")), q(1, 250)), "\n"),
        "sexagesimal": ("RA/Dec (J2000): ", "%02d:%02d:%05.2f %s%02d:%02d:%04.1f" % (q(0, 23), q(0, 59), r.random() * 60, r.choice("+-"), q(0, 89), q(0, 59), r.random() * 60), "\n"),
        "synop": ("", _synop(r), "\n"),
        "nct": ("ClinicalTrials.gov ", "NCT0%07d" % q(0, 9_999_999), "\n"),
        "refseq": ("transcript ", r.choice(["NM_", "NR_", "XM_"]) + "%06d.%d" % (q(1, 999999), q(1, 9)), "\n"),
        "genbank": ("accession ", r.choice(["MN", "OQ", "PP", "AB"]) + "%06d.%d" % (q(0, 999999), q(1, 4)), "\n"),
        "chebi": ("", "CHEBI:%d" % q(1000, 199999), "\n"),
        "kegg": ("", "hsa:%d" % q(1, 120000), "\n"),
        "reactome": ("pathway ", "R-HSA-%d" % q(100000, 9999999), "\n"),
        "snomed": ("SNOMED CT ", str(q(10 ** 7, 10 ** 9 - 1)) + r.choice(["00", "10"]) + str(q(0, 9)), " |Finding|\n"),
        "atc": ("ATC ", "%s%02d%s%s%02d" % (r.choice("ABCDGHJLMNPRSV"), q(1, 16), r.choice(UP), r.choice(UP), q(1, 99)), "\n"),
        "gs1_element": ("UDI: ", "(01)%s(17)%02d%02d%02d(10)%s" % (_d(r, 14), q(26, 32), q(1, 12), q(1, 28), _s(r, UP + D, 6)), "\n"),
        "osgb": ("Grid ref ", "%s %05d %05d" % (r.choice(["TQ", "SU", "NT", "SK", "SJ", "NS"]), q(0, 99999), q(0, 99999)), "\n"),
        "jp_mesh": ("メッシュコード ", "%d%02d-%d%d-%d%d" % (q(30, 68), q(22, 53), q(0, 7), q(0, 7), q(0, 9), q(0, 9)), "\n"),
        "e7": ("\"latitudeE7\": ", "%d, \"longitudeE7\": %d" % (q(-900_000_000, 900_000_000), q(-1_800_000_000, 1_800_000_000)), ",\n"),
        "gars": ("GARS ", "%03d%s%s%d%d" % (q(1, 720), r.choice("ABCDEFGHJKLMNPQ"), r.choice("ABCDEFGHJKLMNPQRSTUVWXYZ"), q(1, 4), q(1, 9)), "\n"),
        "gauss_kruger": ("Gauß-Krüger ", "R %d H %d" % (q(2_500_000, 5_500_000), q(5_200_000, 6_100_000)), "\n"),
        "jp_postcode": ("", "〒%03d-%04d" % (q(1, 999), q(0, 9999)), " 東京都千代田区\n"),
        "pl_postcode": ("", "%02d-%03d" % (q(0, 99), q(0, 999)), " Warszawa\n"),
        "pt_postcode": ("", "%04d-%03d" % (q(1000, 9999), q(0, 999)), " Lisboa\n"),
        "cis_control": ("CIS Ubuntu 24.04 Benchmark ", "%d.%d.%d.%d" % (q(1, 6), q(1, 5), q(1, 9), q(1, 12)), " Ensure the cramfs kernel module is not available\n"),
        "iso27001": ("ISO/IEC 27001 Annex ", "A.%d.%d" % (q(5, 8), q(1, 34)), "\n"),
        "pci_req": ("PCI DSS v4.0 Requirement ", "%d.%d.%d" % (q(1, 12), q(1, 6), q(1, 9)), "\n"),
        "nist_control": ("NIST SP 800-53 ", "%s-%d(%d)" % (r.choice(["AC", "AU", "IA", "SC", "SI"]), q(1, 20), q(1, 12)), "\n"),
        "ecli": ("", "ECLI:%s:%s:%d:%d" % (r.choice(["NL", "DE", "EU", "ES"]), r.choice(["HR", "BGH", "C", "TS"]), q(2000, 2026), q(1, 9999)), "\n"),
        "celex": ("CELEX ", "3%d%s%04d" % (q(1990, 2026), r.choice("RLD"), q(1, 2500)), "\n"),
        "usc": ("", "%d U.S.C. § %d" % (q(1, 54), q(1, 9999)), "\n"),
        "cfr": ("", "%d CFR %d.%d" % (q(1, 50), q(1, 1500), q(1, 99)), "\n"),
        "fed_register": ("", "%d FR %d" % (q(80, 91), q(1000, 99999)), "\n"),
        "ep_patent": ("", "EP %d %03d %03d B1" % (q(1, 4), q(0, 999), q(0, 999)), "\n"),
        "wo_patent": ("", "WO %d/%06d" % (q(2000, 2026), q(0, 999999)), "\n"),
        "threegpp": ("", "3GPP TS %d.%03d V%d.%d.%d" % (q(21, 38), q(100, 999), q(15, 19), q(0, 9), q(0, 9)), "\n"),
        "iec": ("", "IEC %d-%d-%d:%d" % (q(60000, 62999), q(1, 4), q(1, 4), q(2005, 2025)), "\n"),
        "amount_arab": ("الإجمالي: ", _digits("%d\u066c%03d\u066b%02d" % (q(1, 999), q(0, 999), q(0, 99)), "arab"), " د.إ\n"),
        "amount_pers": ("مبلغ: ", _digits("%d\u066c%03d\u066c%03d" % (q(1, 999), q(0, 999), q(0, 999)), "pers"), " ریال\n"),
        "amount_deva": ("कुल: ₹", _digits("%d,%02d,%03d.%02d" % (q(1, 99), q(0, 99), q(0, 999), q(0, 99)), "deva"), "\n"),
        "amount_thai": ("ยอดรวม ", _digits("%d,%03d.%02d" % (q(1, 999), q(0, 999), q(0, 99)), "thai"), " บาท\n"),
        "date_pers": ("تاریخ: ", _digits("%d/%02d/%02d" % (q(1400, 1406), q(1, 12), q(1, 29)), "pers"), "\n"),
        "date_thai": ("วันที่ ", _digits("%d" % q(1, 28), "thai") + " ธันวาคม " + _digits("%d" % q(2560, 2570), "thai"), "\n"),
        "date_jp_era": ("発行日 ", "令和%d年%d月%d日" % (q(1, 8), q(1, 12), q(1, 28)), "\n"),
        "lotto": ("Winning numbers: ", "%s + %d" % (" ".join("%02d" % n for n in sorted(r.sample(range(10, 50), 6))), q(1, 10)), "\n"),
        "ss7_point_code": ("OPC=", "%d-%03d-%d" % (q(1, 7), q(0, 255), q(0, 7)), " DPC=%d-%03d-%d\n" % (q(1, 7), q(0, 255), q(0, 7))),
        "sort_code": ("Sort code ", "%02d-%02d-%02d" % (q(10, 99), q(0, 99), q(0, 99)), "\n"),
        "banknote": ("serial ", "%s%s%s" % (r.choice(["EB", "RD", "SA", "UD", "VA", "NA"]), _d(r, 9), q(0, 9)), "\n"),
        "osi_option": ("", "%-6s%02d%02d%02d%s%08d" % (r.choice(["AAPL", "SPY", "NVDA", "QQQ"]), q(26, 28), q(1, 12), q(1, 28), r.choice("CP"), q(1, 999) * 1000), "\n"),
        "ticker": ("", r.choice(["0700.HK", "7203.T", "005930.KS", "2330.TW", "RELIANCE.NS", "VOW3.DE", "ESZ6", "NQH7"]), "\n"),
        "go_pseudo": ("require example.house/kiosk ", "v0.0.0-2026%02d%02d%02d%02d%02d-%s" % (q(1, 12), q(1, 28), q(0, 23), q(0, 59), q(0, 59), hexid(12)), "\n"),
        "maven_snapshot": ("<version>", "%d.%d.%d-2026%02d%02d.%02d%02d%02d-%d" % (q(0, 9), q(0, 20), q(0, 9), q(1, 12), q(1, 28), q(0, 23), q(0, 59), q(0, 59), q(1, 40)), "</version>\n"),
        "pep440_local": ("torch==", "%d.%d.%d+%s" % (q(1, 2), q(0, 9), q(0, 3), r.choice(["cu121", "cu124", "rocm6.2", "cpu"])), "\n"),
        "conda_build": ("numpy 1.26.4 ", "py3%dh%s_%d" % (q(9, 13), hexid(7), q(0, 3)), " conda-forge\n"),
        "rpm_nevra": ("", "openssl-libs-%d.%d.%d-%d.el9_%d.x86_64" % (q(3, 3), q(0, 5), q(1, 9), q(1, 40), q(1, 6)), "\n"),
        "git_describe": ("built from ", "v%d.%d.%d-%d-g%s" % (q(0, 5), q(0, 30), q(0, 20), q(1, 300), hexid(7)), "\n"),
        "osv": ("", r.choice(["PYSEC-%d-%d" % (q(2018, 2026), q(1, 300)), "RUSTSEC-%d-%04d" % (q(2018, 2026), q(1, 120)), "GO-%d-%04d" % (q(2020, 2026), q(1, 3500))]), "\n"),
        "rhsa": ("", "RHSA-%d:%04d" % (q(2015, 2026), q(1, 9999)), "\n"),
        "usn": ("", "USN-%d-%d" % (q(4000, 7500), q(1, 3)), "\n"),
        "dsa": ("", "DSA-%d-%d" % (q(4000, 6000), q(1, 3)), "\n"),
        "irc_hostmask": (":", "%s!~%s@%s" % (r.choice(["kiri", "dritan", "ops-bot"]), r.choice(["kiri", "u", "bot"]),
                                             r.choice(["user/kiri", "gateway/web/irccloud.com/x-%s" % _s(r, LOW, 16), "kiosk.example.house"])),
                         " PRIVMSG #ops :deploy done\n"),
        "perforce_rev": ("p4 sync ", "//depot/kiosk/main/...@%d" % q(100000, 9999999), "\n"),
    }[kind]
    if _cardish(v):
        return i_look(r, doc, m)  # a run of digits in it would be a card number: draw another
    doc.t(lead)
    doc.look(v, kind)
    doc.t(tail)


ITEMS = [i_email, i_phone, i_ssn, i_card, i_iban, i_ipv4, i_ipv6, i_api_key, i_api_key, i_jwt,
         i_private_key, i_url]


FILLERS = ["\n", "\n\n", "---\n", "{% endblock %}\n", "@enduml\n", "| take 10\n", "Dialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,\n"]


def heldout18_doc(r, doc, m):
    """One text of the nineteenth family: a few blocks, each an item or a
    look-alike, with a line of filler in between now and then."""
    family_doc(r, doc, m, ITEMS, i_look, FILLERS)
