"""Gold from GUM's court hearings and interviews (human-annotated, CC BY 4.0
annotations; texts CC BY 4.0 / CC BY 2.5): more real, diverse transcript gold than
one hearing, for checking detection and fitting the score calibration.

GUM marks every entity mention (CoNLL-U, MISC `Entity=(id-etype-…` … `id)`). Kept:
the *named* mentions, those whose head is a proper noun, of type person, place and
organization, as PERSON, LOCATION and ORGANIZATION. Boundaries follow
`../shared/annotation-guideline.md`: articles, titles and a possessive 's are left
out ("Mr. Roberts" → "Roberts", "the Supreme Court" → "Supreme Court"); a named
mention inside a longer named one is not marked apart (an organization's name
includes its place). GUM has no DATE, AGE or ID layer of the guideline's kind, so
these files score names only: each record says so (`"labels"`), and the
evaluation leaves predictions of other labels out.

The text is rebuilt from the tokens (`SpaceAfter=No` honoured), one line per
speaker turn or paragraph, with no speaker labels (GUM's speakers are metadata,
not annotated mentions).

    python -m evaluation gum ../shared/data/train-open/gum --out evaluation/gum

writes `gum_fit.jsonl` (calibration and development) and `gum_heldout.jsonl`
(never fitted on: every second document of each genre, by name).
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from pipelines.lexicons import HONORIFICS, NAME_PARTICLES, ROLE_WORDS

GENRES = ("court", "interview")
TYPES = {"person": "PERSON", "place": "LOCATION", "organization": "ORGANIZATION"}
# GUM escapes parentheses inside an identity (%28, %29), so a mention's fields
# run to the next "(" or ")": greedy, or an identity ending in digits ("…_1954")
# would read as a closing bracket.
_ENTITY = re.compile(r"\((\d+)-([a-z]+)[^()]*(\))?|(\d+)\)")


@dataclass
class _Token:
    form: str
    upos: str
    head: int  # sentence-local id of the head, 0 for the root
    plural: bool
    sid: int  # sentence-local id
    sentence: int
    deprel: str = ""
    start: int = 0
    end: int = 0


@dataclass
class _Doc:
    id: str
    tokens: list[_Token] = field(default_factory=list)
    mentions: list[tuple[int, int, str]] = field(default_factory=list)  # token indices [a, b], etype
    text: str = ""


def _misc(value: str) -> dict[str, str]:
    out = {}
    for item in value.split("|"):
        key, _, val = item.partition("=")
        out[key] = val
    return out


def read_conllu(path: Path) -> _Doc:
    doc = _Doc(path.stem)
    parts: list[str] = []
    opened: dict[str, list[tuple[int, str]]] = {}
    sentence = -1
    speaker, last_speaker = None, None
    new_line = True
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# speaker = "):
            speaker = line.split("=", 1)[1].strip()
        elif line.startswith("# newpar"):
            new_line = True
        elif line.startswith("# sent_id"):
            sentence += 1
            if speaker != last_speaker:
                new_line, last_speaker = True, speaker
            if parts:
                parts[-1] = parts[-1].rstrip(" ")
                parts.append("\n" if new_line else " ")
            new_line = False
        elif line and not line.startswith("#"):
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue  # multi-word token ranges and empty nodes
            offset = sum(len(p) for p in parts)
            plural = "Number=Plur" in cols[5]
            token = _Token(
                cols[1], cols[3], int(cols[6]), plural, int(cols[0]), sentence, cols[7], offset, offset + len(cols[1])
            )
            index = len(doc.tokens)
            doc.tokens.append(token)
            misc = _misc(cols[9])
            parts.append(cols[1] + ("" if misc.get("SpaceAfter") == "No" else " "))
            for m in _ENTITY.finditer(misc.get("Entity", "")):
                if m.group(1):
                    if m.group(3):
                        doc.mentions.append((index, index, m.group(2)))
                    else:
                        opened.setdefault(m.group(1), []).append((index, m.group(2)))
                elif opened.get(m.group(4)):
                    start, etype = opened[m.group(4)].pop()
                    doc.mentions.append((start, index, etype))
    doc.text = "".join(parts).rstrip()
    return doc


def _head(doc: _Doc, a: int, b: int) -> _Token:
    tokens = doc.tokens[a : b + 1]
    ids = {t.sid for t in tokens}
    outside = [t for t in tokens if t.head not in ids]
    return outside[0] if outside else tokens[0]


def _inner_hyphen(doc: _Doc, i: int) -> bool:
    t = doc.tokens[i]
    if t.form not in ("-", "‐") or not 0 < i < len(doc.tokens) - 1:
        return False
    return doc.tokens[i - 1].end == t.start and t.end == doc.tokens[i + 1].start


def _name_run(doc: _Doc, a: int, b: int, head: int, label: str) -> tuple[int, int] | None:
    """The name inside a mention: the run of proper nouns around its head, with the
    small words between two of them ("Institute of Technology", "Bank of the
    West"), a number right after one ("Local 12") and a nickname in quotes
    between two ('Jungwook "Wookie" Kim'). Left out: articles,
    adjectives, titles and descriptions before it ("philosopher Noam Chomsky"),
    a possessive and the words after it ("Matthew here"), and a comma's other
    part ("Cambridge, Massachusetts" is two places)."""

    def title(i: int) -> bool:
        word = doc.tokens[i].form.lower().rstrip(".")
        return label == "PERSON" and (word in HONORIFICS or word in ROLE_WORDS)

    def proper(i: int) -> bool:
        # A capitalised adjective or noun inside the mention is part of the name
        # ("Anacapa Residential Hall"), as is a capitalised word the tagger took for a
        # verb ("United States", "United" tagged VERB); a title is not.
        if not a <= i <= b or title(i):
            return False
        t = doc.tokens[i]
        return t.upos == "PROPN" or (t.upos in ("ADJ", "NOUN", "VERB") and t.form[:1].isupper())

    def quote(i: int) -> bool:
        return a <= i <= b and doc.tokens[i].form in ('"', "“", "”", "'", "‘", "’")

    def joiner(i: int) -> bool:
        if not a <= i <= b or doc.tokens[i].form == ",":
            return False
        if label == "PERSON":
            # Two people are two names ("Jonathan M. Stan and John-Christian G.
            # Rauschenberg"), and a person's firm is no part of the name ("Isabel Ruiz
            # of Heaven Sent Gaming"): only a name's particles join ("Rosa de la Vega"),
            # and a hyphen inside a word ("John-Christian").
            return doc.tokens[i].form in NAME_PARTICLES or _inner_hyphen(doc, i)
        return doc.tokens[i].upos in ("ADP", "CCONJ", "DET")

    if doc.tokens[head].upos != "PROPN" or title(head):
        return None
    start = end = head
    while True:
        if proper(start - 1):
            start -= 1
        elif joiner(start - 1) and proper(start - 2):
            start -= 2
        else:
            break
    while True:
        if proper(end + 1):
            end += 1
        elif joiner(end + 1) and proper(end + 2):
            end += 2
        elif joiner(end + 1) and joiner(end + 2) and proper(end + 3):  # "Bank of the West"
            end += 3
        elif a <= end + 1 <= b and doc.tokens[end + 1].upos == "NUM":
            end += 1
        elif quote(end + 1) and proper(end + 2) and quote(end + 3) and proper(end + 4):
            end += 4  # a nickname in quotes inside the name: 'Jungwook "Wookie" Kim'
        else:
            break
    return start, end


# A title or office used as a name ("the Secretary", "Governor") and a body named
# by its function ("the Court", "the Board"), as the guideline's ORGANIZATION
# section says.
_OFFICES = frozenset(
    {"secretary", "governor", "chief", "president", "minister", "senator", "solicitor", "lords"}
    | {"director", "manager", "editor", "founder", "coach", "captain", "chair", "honor", "honour"}
)
# "Your Honor", "His Excellency": a form of address, not a name.
_ADDRESS = frozenset({"your", "his", "her", "their"})
# A body named by its function alone (the guideline's "the Board"), the state that
# prosecutes ("the State") and a service academy ("the Academy") among them: not marked.
_BODIES = frozenset(
    {"court", "board", "panel", "committee", "commission", "department", "division", "agency", "bench", "tribunal"}
    | {"state", "academy"}
)
# A nation's legislature or government by its one word ("Parliament", "Congress"):
# a named body that identifies no one, the guideline's "generic" (neutral) span.
_NATIONAL_BODIES = frozenset({"government", "parliament", "congress", "senate", "legislature"})


def _function_word(word: str, label: str) -> bool:
    folded = word.lower().rstrip(".")
    if label == "PERSON":
        return folded in ROLE_WORDS or folded in HONORIFICS or folded in _OFFICES
    return label == "ORGANIZATION" and folded in _BODIES


def _titled_name(doc: _Doc, a: int, b: int, head: _Token) -> tuple[int, int] | None:
    """A person named after a description ("attorney John Martin", "LibriVox
    founder Hugh McGuire"): UD makes the description the head and the name its
    `flat` proper nouns. The name's first and last token indices, or None."""

    def part(i: int, heads: set[int]) -> bool:
        t = doc.tokens[i]
        return a <= i <= b and t.upos == "PROPN" and t.deprel == "flat" and t.head in heads

    first = next((i for i in range(a, b + 1) if part(i, {head.sid})), None)
    if first is None:
        # "Assistant Professor ... at Washington State University Simon Ličen": the
        # name stands in apposition to an office UD tags as a proper noun.
        appos = next(
            (
                i
                for i in range(b, a, -1)
                if doc.tokens[i].upos == "PROPN" and doc.tokens[i].deprel == "appos" and doc.tokens[i].head == head.sid
            ),
            None,
        )
        if appos is None:
            return None
        # Its given names hang on the surname; the office's own names do not.
        start = appos
        while (
            start - 1 > a
            and doc.tokens[start - 1].upos == "PROPN"
            and doc.tokens[start - 1].head == doc.tokens[appos].sid
        ):
            start -= 1
        return start, appos
    last = first
    # Later parts hang on the description or on the name's first word.
    while part(last + 1, {head.sid, doc.tokens[first].sid}):
        last += 1
    return first, last


def _place_of(doc: _Doc, a: int, b: int, head: _Token) -> int | None:
    """A place named after its kind ("the state of Texas", "the leafy Melbourne
    suburb of Preston"): the mention's head is the common noun, the name a proper
    noun after "of" that ends the mention. The name's head token index, or None."""
    for i in range(a + 1, b + 1):
        t = doc.tokens[i]
        before = doc.tokens[i - 1]
        if t.upos == "PROPN" and t.head == head.sid and t.deprel == "nmod" and before.form.lower() == "of":
            return i
    return None


def _names_someone(doc: _Doc, a: int, cut: tuple[int, int], label: str) -> bool:
    """Not a name: a body or an office named by its function ("the Court", "the
    Secretary", a person's "Team Manager"), nor a form of address inside the
    mention ("Your Honor")."""
    last = doc.tokens[cut[1]]
    if _function_word(last.form, label) and (cut[0] == cut[1] or label == "PERSON"):
        return False
    before = doc.tokens[cut[0] - 1] if cut[0] > a else None
    return not (label == "PERSON" and cut[0] == cut[1] and before is not None and before.form.lower() in _ADDRESS)


_BRACKETS = frozenset({"[", "]"})


def _bracketed_parts(doc: _Doc, a: int, b: int, cut: tuple[int, int], label: str) -> list[tuple[int, int, str]]:
    """An editor's bracket inside a person's name ("[George H. W.] Bush", "Jeff
    [Drake]"): the part across it is a name too, its own span, since spans hold
    contiguous name words."""
    parts: list[tuple[int, int, str]] = []
    if label != "PERSON":
        return parts
    # After the run, then before it (where the mention's head follows the bracket).
    for step, edge in ((1, cut[1]), (-1, cut[0])):
        while a <= edge + 2 * step <= b and doc.tokens[edge + step].form in _BRACKETS:
            other = _name_run(doc, a, b, edge + 2 * step, label)
            if other is None or other[0 if step == 1 else 1] != edge + 2 * step:
                break
            parts.append((doc.tokens[other[0]].start, doc.tokens[other[1]].end, label))
            edge = other[1 if step == 1 else 0]
    return parts


def gold_spans(doc: _Doc) -> list[dict]:
    named = []
    for a, b, etype in doc.mentions:
        label = TYPES.get(etype)
        if label is None or doc.tokens[a].sentence != doc.tokens[b].sentence:
            continue
        head = _head(doc, a, b)
        office = head.upos == "NOUN" or _function_word(head.form, "PERSON")
        titled = _titled_name(doc, a, b, head) if label == "PERSON" and office else None
        if titled:
            named.append((doc.tokens[titled[0]].start, doc.tokens[titled[1]].end, label))
            continue
        place = _place_of(doc, a, b, head) if label == "LOCATION" and head.upos == "NOUN" else None
        if place is not None:
            head = doc.tokens[place]
        if head.upos != "PROPN" or (label == "PERSON" and head.plural):
            continue  # not named, or a group ("Buddhists", "My Lords"): not a person
        cut = _name_run(doc, a, b, doc.tokens.index(head, a), label)
        if cut and _names_someone(doc, a, cut, label):
            named.append((doc.tokens[cut[0]].start, doc.tokens[cut[1]].end, label))
            named.extend(_bracketed_parts(doc, a, b, cut, label))
        if label == "PERSON":  # "Chase and Chelsea McCombs": each conjunct of the name is a name
            for i in range(a, b + 1):
                t = doc.tokens[i]
                conjunct = t.upos == "PROPN" and t.deprel.startswith("conj") and t.head == head.sid
                inside = cut is not None and cut[0] <= i <= cut[1]
                other = _name_run(doc, a, b, i, label) if conjunct and not inside else None
                if other is not None and _names_someone(doc, a, other, label):
                    named.append((doc.tokens[other[0]].start, doc.tokens[other[1]].end, label))
    # Outermost only: a named mention inside a longer named one is part of it.
    named.sort(key=lambda s: (s[0], -s[1]))
    kept: list[tuple[int, int, str]] = []
    for s in named:
        if kept and s[0] < kept[-1][1]:
            continue
        kept.append(s)
    return [_span(doc, s, e, label) for s, e, label in kept]


def _span(doc: _Doc, start: int, end: int, label: str) -> dict:
    span: dict = {"start": start, "end": end, "label": label, "text": doc.text[start:end]}
    if label == "ORGANIZATION" and span["text"].lower() in _NATIONAL_BODIES:
        span["generic"] = True
    return span


def convert(source: Path, out: Path) -> dict[str, int]:
    if not any(source.glob("GUM_*.conllu")):
        # A wrong path would otherwise empty the gold files.
        raise SystemExit(f"{source}: no GUM_*.conllu files")
    out.mkdir(parents=True, exist_ok=True)
    counts = {"fit": 0, "heldout": 0}
    files = {name: (out / f"gum_{name}.jsonl").open("w", encoding="utf-8") for name in counts}
    try:
        for genre in GENRES:
            for n, path in enumerate(sorted(source.glob(f"GUM_{genre}_*.conllu"))):
                doc = read_conllu(path)
                split = "heldout" if n % 2 else "fit"
                record = {"id": doc.id, "text": doc.text, "labels": sorted(TYPES.values()), "spans": gold_spans(doc)}
                files[split].write(json.dumps(record, ensure_ascii=False) + "\n")
                counts[split] += 1
    finally:
        for f in files.values():
            f.close()
    return counts
