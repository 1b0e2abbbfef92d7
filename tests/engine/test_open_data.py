"""The licence-clean training data of the default model (training/open_data.py),
read from a miniature train-open tree: each set's format and tags, GUM's held-out
documents never read, and the transcript and line-break shapes."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "training"))
import open_data  # noqa: E402  (training/ is no package)

GUM = """# newdoc id = {name}
# sent_id = {name}-1
# text = Amy Sells met the Court in Phoenix.
1\tAmy\tAmy\tPROPN\tNNP\t_\t3\tnsubj\t_\tEntity=(1-person-giv
2\tSells\tSells\tPROPN\tNNP\t_\t1\tflat\t_\tEntity=1)
3\tmet\tmeet\tVERB\tVBD\t_\t0\troot\t_\t_
4\tthe\tthe\tDET\tDT\t_\t5\tdet\t_\tEntity=(2-organization-giv
5\tCourt\tCourt\tPROPN\tNNP\t_\t3\tobj\t_\tEntity=2)
6\tin\tin\tADP\tIN\t_\t7\tcase\t_\t_
7\tPhoenix\tPhoenix\tPROPN\tNNP\t_\t3\tobl\t_\tEntity=(3-place-new)|SpaceAfter=No
8\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

"""


def _tree(root: Path) -> Path:
    (root / "gum").mkdir(parents=True)
    for name in ("GUM_court_alpha", "GUM_court_beta", "GUM_bio_gamma"):
        (root / "gum" / f"{name}.conllu").write_text(GUM.format(name=name), encoding="utf-8")
    (root / "btc").mkdir()
    for split in ("train", "dev", "test"):
        (root / "btc" / f"btc.{split}.conll").write_text("@bob\tO\nmet\tO\nJo\tB-PER\nin\tO\nOhio\tB-LOC\n\n")
    (root / "wnut17").mkdir()
    for split in ("train", "dev", "test"):
        (root / "wnut17" / f"wnut17.{split}.conll").write_text(
            "Dune\tB-creative-work\nby\tO\nthe\tO\nBeatles\tB-group\nand\tO\nkim\tB-person\n\n"
        )
    (root / "uner-ewt").mkdir()
    for split in ("dev", "test"):
        (root / "uner-ewt" / f"en_ewt-ud-{split}.iob2").write_text(
            "# sent_id = x\n1\tI\tO\t-\t-\n2\tsaw\tO\t-\t-\n3\tTom\tB-PER\t-\t-\n4\tCruise\tI-PER\t-\t-\n\n"
        )
    return root


def test_each_set_is_read_with_its_tags_mapped_and_gum_s_held_out_documents_left_out(tmp_path):
    sets = open_data.sources(_tree(tmp_path / "train-open"))
    # GUM_court_beta is the second court document: held out (evaluation/gum.py's rule).
    assert len(sets["gum"]) == 2
    assert sets["gum"][0] == [
        ("Amy", "B-PER"),
        ("Sells", "I-PER"),
        ("met", "O"),
        ("the", "O"),
        ("Court", "O"),  # a body named by its function, not by name
        ("in", "O"),
        ("Phoenix", "B-LOC"),
        (".", "O"),
    ]
    assert len(sets["btc"]) == 3 and sets["btc"][0][2:] == [("Jo", "B-PER"), ("in", "O"), ("Ohio", "B-LOC")]
    # WNUT-17's test split stays out; its types map to PER / ORG / MISC.
    assert len(sets["wnut17"]) == 2
    assert [t for _, t in sets["wnut17"][0]] == ["B-MISC", "O", "O", "B-ORG", "O", "B-PER"]
    assert sets["uner-ewt"][0] == [("I", "O"), ("saw", "O"), ("Tom", "B-PER"), ("Cruise", "I-PER")]


def test_gum_s_held_out_rule_is_the_evaluation_s():
    assert not open_data.gum_held_out(Path("/x/GUM_bio_a.conllu"))
    assert open_data.HELD_OUT_GENRES == ("court", "interview")


def test_a_line_break_inside_a_name_is_part_of_it_and_one_between_sentences_is_not():
    sentence = [(f"w{i}", "O") for i in range(7)] + [("Ada", "B-PER"), ("Lovelace", "I-PER")]
    sentences = [sentence] * 6
    shaped = open_data.with_line_breaks(sentences)
    assert shaped[0] == sentence
    # n % 4 == 1: the previous sentence's last six words, a line break, then this one.
    assert shaped[1] == [*sentence[-6:], (open_data.LINE_BREAK, "O"), *sentence]
    # n % 3 == 2: hard-wrapped every 7 + n % 5 = 9 words; a break inside a name is in it.
    named = [(f"w{i}", "O") for i in range(8)] + [("Ada", "B-PER"), ("Lovelace", "I-PER"), ("w10", "O")]
    wrapped = open_data.with_line_breaks([sentence, sentence, named])[2]
    assert wrapped == [*named[:9], (open_data.LINE_BREAK, "I-PER"), *named[9:]]


def test_speaker_and_role_labels_are_added_with_the_guideline_s_tags():
    plain = [[("hello", "O")] for _ in range(15)]
    shaped = open_data.shaped(plain, ["GARCIA"])
    assert shaped[5][0][0] in open_data.QA and shaped[5][0][1] == "O"
    assert shaped[6][:3] == [(shaped[6][0][0], "O"), ("GARCIA", "B-PER"), (":", "O")]
    # n % 11 == 3: a role label, all O (a role is no name).
    assert shaped[3] == [("THE", "O"), ("COURT", "O"), (":", "O"), ("hello", "O")]
    assert shaped[14] == [("THE", "O"), ("WITNESS", "O"), (":", "O"), ("hello", "O")]


def test_other_names_replace_each_person_in_its_case_and_nothing_else():
    sentences = [
        [("Ada", "B-PER"), ("Lovelace", "I-PER"), ("met", "O"), ("Babbage", "B-PER"), ("in", "O"), ("London", "B-LOC")],
        [("MS.", "O"), ("GARCIA", "B-PER"), (":", "O"), ("yes", "O")],
        [("Mary", "B-PER"), (open_data.LINE_BREAK, "I-PER"), ("Smith", "I-PER")],
    ] * 20
    given, family = ["Tanja", "Waqar"], ["Damaske", "Younis"]
    swapped = open_data.with_other_names(sentences, given, family, seed=1)
    assert swapped == open_data.with_other_names(sentences, given, family, seed=1)  # deterministic
    lengths = set()
    for old, new in zip(sentences, swapped, strict=True):
        # Every word that is no person's stays; a person becomes a surname or a full name.
        assert [p for p in new if not p[1].endswith("PER")] == [p for p in old if not p[1].endswith("PER")]
        if old[1][0] == open_data.LINE_BREAK:
            assert new == old  # a name broken by a line is left as it is
            continue
        for word, tag in new:
            if tag.endswith("PER"):
                assert word.upper() in {w.upper() for w in given + family}
        if old[1][0] == "GARCIA":
            assert new[1][0].isupper() and new[1][1] == "B-PER"
        if old[0][0] == "Ada":
            lengths.add(next(i for i, (_, t) in enumerate(new) if t == "O"))
    assert lengths == {1, 2}  # a surname alone and a full name both occur


def test_the_tweet_share_keeps_that_share_evenly_through_the_sets():
    """The mix lever: every second sentence at 0.5 (not the first half, which would keep
    some collection periods only), all at 1.0, none at 0."""
    sentences = [[(f"w{i}", "O")] for i in range(10)]
    assert [s[0][0] for s in open_data.spread(sentences, 0.5)] == ["w1", "w3", "w5", "w7", "w9"]
    assert open_data.spread(sentences, 1.0) == sentences
    assert open_data.spread(sentences, 0.0) == []
