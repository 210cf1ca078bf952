"""Small value makers the held-out template families share
(`detect_heldout3.py`, `detect_heldout4.py`, `detect_heldout5.py`, and
some of `detect_heldout2.py`): alphabets, digit and token strings, SSN
parts, and an IBAN's check number. They hold no template: each family's
shapes and surroundings stay its own."""
import string

D = string.digits
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
AN = string.ascii_letters + string.digits
UP = string.ascii_uppercase
LOW = string.ascii_lowercase
B64 = AN + "+/"
B64URL = AN + "-_"


def _d(r, n):
    return "".join(r.choice(D) for _ in range(n))


def _s(r, alphabet, n):
    return "".join(r.choice(alphabet) for _ in range(n))


def _tok(r, n, alphabet=AN):
    """A token with a character of every kind its alphabet has."""
    kinds = [k for k in (str.isdigit, str.isupper, str.islower) if any(k(c) for c in alphabet)]
    while True:
        t = "".join(r.choice(alphabet) for _ in range(n))
        if all(any(k(c) for c in t) for k in kinds):
            return t


def _nz(r):
    return r.choice("23456789")


def _ssn(r):
    """A valid SSN's area, group and serial."""
    while True:
        a = r.randint(1, 899)
        if a != 666:
            return "%03d" % a, "%02d" % r.randint(1, 99), "%04d" % r.randint(1, 9999)


def mod97(s):
    """`s` read as ISO 7064 mod 97-10 reads it (letters as 10..35)."""
    return int("".join(str(int(c, 36)) for c in s)) % 97


def with_check(country, bban):
    """The IBAN of `country` and `bban` with its mod-97 check number."""
    return "%s%02d%s" % (country, 98 - mod97(bban + country + "00"), bban)


def family_doc(r, doc, m, items, look, fillers):
    """One text of a family: a few blocks, each one of its `items` or its
    `look`-alike, with one of its `fillers` in between now and then."""
    for _ in range(r.randint(3, 8)):
        if r.random() < 0.5:
            r.choice(items)(r, doc, m)
        else:
            look(r, doc, m)
        if r.random() < 0.3:
            doc.t(r.choice(fillers))


def _put(doc, lead, value, cls, form, tail, claimed=True):
    """`lead`, then `value` as an item of class `cls` (form `t_<form>`),
    then `tail`."""
    doc.t(lead)
    doc.item(value, cls, "t_" + form, claimed)
    doc.t(tail)


def _seq(doc, form, parts):
    """Text and items in turn: a str is text, a (value, class) pair an item."""
    for p in parts:
        if isinstance(p, tuple):
            doc.item(p[0], p[1], "t_" + form)
        else:
            doc.t(p)



def label_filler(doc, values, form="t_filler"):
    """Label the real addresses a family's own fixed text holds (a
    resolver, a local socket, a mask): each occurrence of a `values`
    string outside the planted items and look-alikes becomes an item of
    its class, so a detector that removes it is not scored as wrong.
    Called once a text is complete; draws nothing."""
    text = doc.text()
    taken = [(a, b) for a, b, *_ in doc.items] + [(a, b) for a, b, _ in doc.looks]
    for value, cls in values:
        at = text.find(value)
        while at >= 0:
            end = at + len(value)
            before = text[at - 1:at]
            after = text[end:end + 1]
            whole = not (before.isalnum() or before == ".") and not (after.isalnum() or (after == "." and text[end + 1:end + 2].isdigit()))
            if whole and not any(a < end and at < b for a, b in taken):
                doc.items.append([at, end, cls, form, True])
                taken.append((at, end))
            at = text.find(value, end)
    doc.items.sort()
