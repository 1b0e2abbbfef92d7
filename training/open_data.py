"""Licence-clean NER training sentences for the default model (issue 26).

Only `../shared/data/train-open/` is read: every set there allows commercial use.

- GUM, genres academic, bio, court, interview, news, voyage (annotations CC BY 4.0;
  texts CC BY / CC BY-SA): named mentions (head is a proper noun), person → PER,
  place → LOC, organization → ORG, event / object / abstract → MISC.
- Broad Twitter Corpus, train, dev and test (CC BY 4.0): PER / LOC / ORG.
- WNUT-17, train and dev (CC BY 4.0): person → PER, location → LOC,
  corporation / group → ORG, product / creative-work → MISC.
- Universal NER English-EWT, dev and test (CC BY-SA 4.0): PER / LOC / ORG.

GUM's court and interview documents that `evaluation/gum.py` holds out (every
second one of each genre, by name) are never read here: they stay evaluation data.
WNUT-17's test split is left out too (kept for an independent check).

Every sentence is a list of (word, IOB2 tag) pairs with tags PER / LOC / ORG / MISC.
Transcript shape (deterministic, by sentence number, training copies only):

- n % 7 == 5: a question/answer marker before the sentence ("Q", "A", "Q.", "A.");
- n % 7 == 6: an upper-case speaker label before it ("MR. SMITH:", "MS. GARCIA:"),
  whose surname is a PER name taken from the data itself and tagged B-PER; the
  honorific and the colon are O, as the annotation guideline marks them;
- n % 11 == 3: a role label before it ("THE COURT:", "THE WITNESS:"), all O:
  a role is no name.

Line breaks. The product gives the encoder a LINE_BREAK piece ("¶") where the text
breaks a line, and training teaches what one means (`with_line_breaks`):

- n % 4 == 1: the sentence follows the one before it on a new line (previous words,
  "¶", this sentence): an entity ending one line and one opening the next stay two
  ("CDCR ¶ MARCUS DELGADO");
- n % 3 == 2: the sentence is hard-wrapped every 7 to 11 words, as plain-text
  transcripts are; a "¶" that falls inside a name is part of it (I-), as the
  annotation guideline marks a name broken across lines.

Other people. With `other_names` (the shipped recipe), GUM's second copy per epoch
names other people: each person's name is replaced by given names and surnames from
Faker's lists of many locales (`with_other_names`), so that the encoder learns names
from anywhere, and a surname alone, as names, not as the places and clubs they sound
like.

Case. The wordpieces are lower-cased; the open model reads each word's case as its
token type instead (the "case_types" setting, pipelines/detection/case.py), and
is shown a tenth of the sentences as caseless (a transcript in capitals, or in lower
case), so no case copies of the text are needed.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OPEN = ROOT.parent / "shared" / "data" / "train-open"
sys.path.insert(0, str(ROOT))

Sentence = list[tuple[str, str]]

GUM_TYPES = {
    "person": "PER",
    "place": "LOC",
    "organization": "ORG",
    "event": "MISC",
    "object": "MISC",
    "abstract": "MISC",
}
GUM_GENRES = ("academic", "bio", "court", "interview", "news", "voyage")
HELD_OUT_GENRES = ("court", "interview")  # evaluation/gum.py's GENRES
WNUT = {
    "person": "PER",
    "location": "LOC",
    "corporation": "ORG",
    "group": "ORG",
    "product": "MISC",
    "creative-work": "MISC",
}
QA = ("Q", "A", "Q.", "A.")
LINE_BREAK = "¶"  # in the base's vocabulary; minilm.py gives it to every line break
HONORIFICS = ("MR.", "MS.", "MRS.", "DR.")
ROLES = (("THE", "COURT"), ("THE", "WITNESS"), ("THE", "CLERK"), ("THE", "DEFENDANT"), ("THE", "BAILIFF"))


def gum_held_out(path: Path) -> bool:
    """evaluation/gum.py's rule: the odd-numbered document of each held-out genre."""
    genre = path.name.split("_")[1]
    if genre not in HELD_OUT_GENRES:
        return False
    names = sorted(p.name for p in path.parent.glob(f"GUM_{genre}_*.conllu"))
    return names.index(path.name) % 2 == 1


def gum_sentences(path: Path) -> list[Sentence]:
    from evaluation.gum import _function_word, _head, _name_run, read_conllu

    doc = read_conllu(path)
    tags = ["O"] * len(doc.tokens)
    named: list[tuple[int, int, str]] = []
    for a, b, etype in doc.mentions:
        kind = GUM_TYPES.get(etype)
        if kind is None or doc.tokens[a].sentence != doc.tokens[b].sentence:
            continue
        head = _head(doc, a, b)
        if head.upos != "PROPN" or (kind == "PER" and head.plural):
            continue
        label = {"PER": "PERSON", "ORG": "ORGANIZATION"}.get(kind, "LOCATION")
        cut = _name_run(doc, a, b, doc.tokens.index(head, a), label)
        if not cut or (cut[0] == cut[1] and _function_word(doc.tokens[cut[0]].form, label)):
            continue
        named.append((cut[0], cut[1], kind))
    named.sort(key=lambda s: (s[0], -s[1]))
    end = -1
    for a, b, kind in named:
        if a <= end:
            continue  # outermost only
        if any("@" in t.form or "://" in t.form for t in doc.tokens[a : b + 1]):
            continue  # an address or a link: the product's patterns find those, not the encoder
        tags[a] = "B-" + kind
        for i in range(a + 1, b + 1):
            tags[i] = "I-" + kind
        end = b
    out: list[Sentence] = []
    current: Sentence = []
    sentence = 0
    for token, tag in zip(doc.tokens, tags, strict=True):
        if token.sentence != sentence and current:
            out.append(current)
            current = []
        sentence = token.sentence
        current.append((token.form, tag))
    if current:
        out.append(current)
    return out


def read_columns(path: Path, word: int, tag: int, mapping: dict[str, str] | None = None) -> Iterator[Sentence]:
    """Blank-line-separated sentences of tab-separated columns; '#' lines skipped."""
    rows: Sentence = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        if not line.strip():
            if rows:
                yield rows
            rows = []
            continue
        cols = line.split("\t")
        value = cols[tag].strip() if len(cols) > tag else "O"
        prefix, _, kind = value.partition("-")
        if prefix in ("B", "I") and kind:
            kind = mapping.get(kind, "") if mapping is not None else kind
            value = f"{prefix}-{kind}" if kind in ("PER", "LOC", "ORG", "MISC") else "O"
        else:
            value = "O"
        rows.append((cols[word], value))
    if rows:
        yield rows


def sources(root: Path = OPEN) -> dict[str, list[Sentence]]:
    """Every licence-clean training sentence, by set (before any shaping)."""
    gum: list[Sentence] = []
    for genre in GUM_GENRES:
        for path in sorted((root / "gum").glob(f"GUM_{genre}_*.conllu")):
            if not gum_held_out(path):
                gum += gum_sentences(path)
    btc = [s for split in ("train", "dev", "test") for s in read_columns(root / "btc" / f"btc.{split}.conll", 0, 1)]
    wnut = [
        s for split in ("train", "dev") for s in read_columns(root / "wnut17" / f"wnut17.{split}.conll", 0, 1, WNUT)
    ]
    uner = [s for split in ("dev", "test") for s in read_columns(root / "uner-ewt" / f"en_ewt-ud-{split}.iob2", 1, 2)]
    return {"gum": gum, "btc": btc, "wnut17": wnut, "uner-ewt": uner}


def surnames(sentences: list[Sentence]) -> list[str]:
    """Last words of PER names in the data, upper-cased, in first-seen order."""
    seen: dict[str, None] = {}
    for sentence in sentences:
        for i, (word, tag) in enumerate(sentence):
            nxt = sentence[i + 1][1] if i + 1 < len(sentence) else "O"
            if tag.endswith("PER") and nxt != "I-PER" and word[:1].isalpha() and word[:1].isupper() and len(word) > 2:
                seen.setdefault(word.upper(), None)
    return list(seen)


def shaped(sentences: list[Sentence], names: list[str]) -> list[Sentence]:
    """The transcript-shape prefixes described in the module docstring."""
    out = []
    for n, sentence in enumerate(sentences):
        if n % 11 == 3:
            role = ROLES[(n // 11) % len(ROLES)]
            sentence = [(w, "O") for w in role] + [(":", "O")] + sentence
        elif n % 7 == 5:
            sentence = [(QA[(n // 7) % len(QA)], "O")] + sentence
        elif n % 7 == 6 and names:
            name = names[(n * 7919) % len(names)]
            sentence = [(HONORIFICS[(n // 7) % len(HONORIFICS)], "O"), (name, "B-PER"), (":", "O")] + sentence
        out.append(sentence)
    return out


def with_line_breaks(sentences: list[Sentence]) -> list[Sentence]:
    """The line-break shapes described in the module docstring."""
    out = []
    for n, sentence in enumerate(sentences):
        if n % 4 == 1 and n > 0:
            tail = sentences[n - 1][-6:]
            # The previous line's end must not be the inside of an entity cut in two.
            while tail and tail[0][1].startswith("I-"):
                tail = tail[1:]
            sentence = [*tail, (LINE_BREAK, "O"), *sentence]
        elif n % 3 == 2:
            wrapped: Sentence = []
            width = 7 + n % 5
            for i, (word, tag) in enumerate(sentence):
                if i and i % width == 0:
                    after = tag
                    inside = after.startswith("I-")
                    wrapped.append((LINE_BREAK, after if inside else "O"))
                wrapped.append((word, tag))
            sentence = wrapped
        out.append(sentence)
    return out


def with_other_names(sentences: list[Sentence], given: list[str], family: list[str], seed: int = 0) -> list[Sentence]:
    """The sentences with each person's name replaced by one drawn from `given` and
    `family` names (Faker's lists of many locales, pipelines/gazetteers.py): half the
    time a full name, half a surname alone, in the case the name was written in. The
    data names a few thousand people, most of them English-speaking; a transcript or
    a news story names people from anywhere, often by surname alone, and an encoder
    that met only the first kind types "Kostadinova" or "Younis" as a place. A name
    with anything but letters in it ("O'Brien", "Bailey-Ross") is left as it is.
    Each mention is drawn on its own (a full name and its later surname become two
    people), never a given name alone, and the lists are not filtered for names that
    are also places ("Jordan"): levers for the next retrain. The draw depends on
    `seed` (the copy's number), not on the training seed."""
    rng = random.Random(seed)
    out: list[Sentence] = []
    for sentence in sentences:
        new: Sentence = []
        i = 0
        while i < len(sentence):
            if sentence[i][1] != "B-PER":
                new.append(sentence[i])
                i += 1
                continue
            j = i + 1
            while j < len(sentence) and sentence[j][1] == "I-PER":
                j += 1
            written = [w for w, _ in sentence[i:j]]
            if all(w.isalpha() for w in written):
                words = [rng.choice(family)] if rng.random() < 0.5 else [rng.choice(given), rng.choice(family)]
                if all(w.isupper() for w in written):
                    words = [w.upper() for w in words]
                elif all(w.islower() for w in written):
                    words = [w.lower() for w in words]
                new += [(words[0], "B-PER"), *((w, "I-PER") for w in words[1:])]
            else:
                new += sentence[i:j]
            i = j
        out.append(new)
    return out


def spread(sentences: list[Sentence], share: float) -> list[Sentence]:
    """`share` of the sentences, taken evenly through the list (not a prefix: a
    set's files follow its collection periods, and a prefix would keep some only)."""
    return [s for i, s in enumerate(sentences) if int((i + 1) * share) > int(i * share)]


def training_sentences(
    gum_copies: int = 2, root: Path = OPEN, other_names: bool = False, tweet_share: float = 1.0
) -> tuple[list[Sentence], dict[str, int]]:
    """The shaped training set and its sentence counts by set. GUM, the genre closest
    to transcripts (and the only one with court hearings and interviews), is seen
    `gum_copies` times per epoch; tweets make up most of the raw sentences, and
    `tweet_share` of them (the Broad Twitter Corpus's and WNUT-17's) are kept (the
    mix lever). With
    `other_names`, every copy of GUM after the first names other people
    (`with_other_names`)."""
    by_set = sources(root)
    for social in ("btc", "wnut17"):
        by_set[social] = spread(by_set[social], tweet_share)
    names = surnames([s for sentences in by_set.values() for s in sentences])
    counts = {name: len(s) for name, s in by_set.items()}
    gum = list(by_set["gum"])
    given: list[str] = []
    family: list[str] = []
    if other_names:
        from pipelines.gazetteers import wide_first_names, wide_last_names

        # Sorted: the draw is the same on every machine (a frozenset's order is not).
        given = sorted(n for n in wide_first_names() if n.isalpha())
        family = sorted(n for n in wide_last_names() if n.isalpha())
    for copy in range(1, gum_copies):
        gum += with_other_names(by_set["gum"], given, family, seed=copy) if other_names else by_set["gum"]
    everything = gum + by_set["btc"] + by_set["wnut17"] + by_set["uner-ewt"]
    return with_line_breaks(shaped(everything, names)), counts


if __name__ == "__main__":
    from collections import Counter

    train, counts = training_sentences()
    tags = Counter(t for s in train for _, t in s if t != "O")
    print(counts, len(train), dict(tags))
    for s in train[:12]:
        print(" ".join(f"{w}/{t}" if t != "O" else w for w, t in s))
