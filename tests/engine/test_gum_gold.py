"""GUM's court and interview documents as gold (evaluation/gum.py) and the
per-label figures of the real-gold evaluation (evaluation/realgold.py), on
made-up CoNLL-U in GUM's shape."""

from pathlib import Path

import pytest

from evaluation import gum, realgold
from pipelines.candidate import Candidate

# "the attorney John Martin": UD heads the mention with the description and hangs
# the name on it as `flat` proper nouns; 'Jun "Wookie" Kim' holds a quoted nickname.
DOC = """# newdoc id = GUM_court_test
# sent_id = GUM_court_test-1
# text = Attorney John Martin and Jun "Wookie" Kim argue.
1\tAttorney\tattorney\tNOUN\tNN\tNumber=Sing\t8\tnsubj\t_\tEntity=(1-person-new
2\tJohn\tJohn\tPROPN\tNNP\tNumber=Sing\t1\tflat\t_\t_
3\tMartin\tMartin\tPROPN\tNNP\tNumber=Sing\t2\tflat\t_\tEntity=1)
4\tand\tand\tCCONJ\tCC\t_\t5\tcc\t_\t_
5\tJun\tJun\tPROPN\tNNP\tNumber=Sing\t1\tconj\t_\tEntity=(2-person-new
6\t"\t"\tPUNCT\t``\t_\t7\tpunct\t_\tSpaceAfter=No
7\tWookie\tWookie\tPROPN\tNNP\tNumber=Sing\t5\tflat\t_\tSpaceAfter=No
8\t"\t"\tPUNCT\t''\t_\t7\tpunct\t_\t_
9\tKim\tKim\tPROPN\tNNP\tNumber=Sing\t5\tflat\t_\tEntity=2)
10\targue\targue\tVERB\tVBP\t_\t0\troot\t_\tSpaceAfter=No
11\t.\t.\tPUNCT\t.\t_\t10\tpunct\t_\t_

"""


def _gold(tmp_path: Path, conllu: str) -> list[dict]:
    """The gold spans the converter reads from one made-up document."""
    name = conllu.split("newdoc id = ", 1)[1].split("\n", 1)[0]
    path = tmp_path / f"{name}.conllu"
    path.write_text(conllu, encoding="utf-8")
    return gum.gold_spans(gum.read_conllu(path))


def test_a_name_after_its_description_and_a_quoted_nickname_are_gold(tmp_path: Path) -> None:
    assert [s["text"] for s in _gold(tmp_path, DOC)] == ["John Martin", 'Jun "Wookie" Kim']


# GUM marks a group of people as one person mention: each name is its own span, a
# hyphenated given name stays whole, the firm after "of" is no part of a name, and
# "Your Honor" is a form of address.
GROUP = """# newdoc id = GUM_interview_group
# sent_id = GUM_interview_group-1
# text = Chase and Jean-Luc Ruiz of Acme thanked Your Honor.
1\tChase\tChase\tPROPN\tNNP\tNumber=Sing\t9\tnsubj\t_\tEntity=(1-person-new
2\tand\tand\tCCONJ\tCC\t_\t6\tcc\t_\t_
3\tJean\tJean\tPROPN\tNNP\tNumber=Sing\t1\tconj\t_\tSpaceAfter=No
4\t-\t-\tPUNCT\tHYPH\t_\t5\tpunct\t_\tSpaceAfter=No
5\tLuc\tLuc\tPROPN\tNNP\tNumber=Sing\t3\tflat\t_\t_
6\tRuiz\tRuiz\tPROPN\tNNP\tNumber=Sing\t3\tflat\t_\t_
7\tof\tof\tADP\tIN\t_\t8\tcase\t_\t_
8\tAcme\tAcme\tPROPN\tNNP\tNumber=Sing\t1\tnmod\t_\tEntity=(2-organization-new)1)
9\tthanked\tthank\tVERB\tVBD\t_\t0\troot\t_\t_
10\tYour\tyour\tPRON\tPRP$\t_\t11\tnmod:poss\t_\tEntity=(3-person-new
11\tHonor\tHonor\tPROPN\tNNP\tNumber=Sing\t9\tobj\t_\tEntity=3)|SpaceAfter=No
12\t.\t.\tPUNCT\t.\t_\t9\tpunct\t_\t_

"""


def test_a_group_of_people_gives_each_name_and_a_form_of_address_none(tmp_path: Path) -> None:
    spans = _gold(tmp_path, GROUP)
    assert [(s["text"], s["label"]) for s in spans] == [
        ("Chase", "PERSON"),
        ("Jean-Luc Ruiz", "PERSON"),
        ("Acme", "ORGANIZATION"),
    ]


PLACE = """# newdoc id = GUM_court_place
# sent_id = GUM_court_place-1
# text = They lived in the state of Idaho.
1\tThey\tthey\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\tlived\tlive\tVERB\tVBD\t_\t0\troot\t_\t_
3\tin\tin\tADP\tIN\t_\t5\tcase\t_\t_
4\tthe\tthe\tDET\tDT\t_\t5\tdet\t_\tEntity=(1-place-new
5\tstate\tstate\tNOUN\tNN\tNumber=Sing\t2\tobl\t_\t_
6\tof\tof\tADP\tIN\t_\t7\tcase\t_\t_
7\tIdaho\tIdaho\tPROPN\tNNP\tNumber=Sing\t5\tnmod\t_\tEntity=1)|SpaceAfter=No
8\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

"""


def test_a_place_named_after_its_kind_is_gold(tmp_path: Path) -> None:
    spans = _gold(tmp_path, PLACE)
    assert [(s["text"], s["label"]) for s in spans] == [("Idaho", "LOCATION")]


# GUM's tagger takes the "United" of "United States" for a verb (lemma "Unite").
UNITED = """# newdoc id = GUM_court_united
# sent_id = GUM_court_united-1
# text = Green versus United States held.
1\tGreen\tGreen\tPROPN\tNNP\tNumber=Sing\t5\tnsubj\t_\tEntity=(1-person-new)
2\tversus\tversus\tADP\tIN\t_\t4\tcase\t_\t_
3\tUnited\tUnite\tVERB\tNNP\tTense=Past|VerbForm=Part\t4\tamod\t_\tEntity=(2-organization-new
4\tStates\tState\tPROPN\tNNPS\tNumber=Plur\t1\tnmod\t_\tEntity=2)
5\theld\thold\tVERB\tVBD\t_\t0\troot\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t.\t_\t5\tpunct\t_\t_

"""


def test_a_capitalised_word_tagged_as_a_verb_stays_in_the_name(tmp_path: Path) -> None:
    spans = _gold(tmp_path, UNITED)
    assert [(s["text"], s["label"]) for s in spans] == [("Green", "PERSON"), ("United States", "ORGANIZATION")]


def test_the_converter_refuses_an_empty_source(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        gum.convert(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_per_label_figures_count_the_shipped_scores_at_each_bar() -> None:
    text = "Ann Lee met Bob at Acme in Reno."
    doc = realgold.GoldDoc(
        "d", text, [(0, 7, "PERSON"), (12, 15, "PERSON"), (19, 23, "ORGANIZATION")], [(27, 31, "LOCATION")]
    )

    def span(needle: str, label: str, score: float) -> Candidate:
        start = text.index(needle)
        return Candidate(start, start + len(needle), label, needle, ("spacy",), score)

    predictions = {
        "d": [
            span("Ann Lee", "PERSON", 0.95),  # right, exact
            span("Bob", "ORGANIZATION", 0.92),  # wrong label: wrong at 0.9
            span("Acme", "ORGANIZATION", 0.85),  # right, below 0.9
            span("Reno", "LOCATION", 0.99),  # neutral gold: neither right nor wrong
        ]
    }
    rows = realgold.label_report([doc], predictions)
    assert rows["PERSON"].at_bar == {0.9: [1, 1], 0.8: [1, 1]}
    assert rows["ORGANIZATION"].at_bar == {0.9: [1, 0], 0.8: [2, 1]}
    assert "LOCATION" not in rows or not rows["LOCATION"].at_bar
    person = rows["PERSON"].exact
    assert (person.tp_pred, person.n_pred, person.tp_gold, person.n_gold) == (1, 1, 1, 2)
    organization = rows["ORGANIZATION"].overlap
    assert (organization.tp_pred, organization.n_pred) == (1, 2)


# "the State" that prosecutes is a body by its function (not marked); "Congress" a
# named body that identifies no one (generic: neutral in the scoring).
BODIES = """# newdoc id = GUM_court_bodies
# sent_id = GUM_court_bodies-1
# text = The State asked Congress.
1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\tEntity=(1-organization-new
2\tState\tState\tPROPN\tNNP\tNumber=Sing\t3\tnsubj\t_\tEntity=1)
3\tasked\task\tVERB\tVBD\t_\t0\troot\t_\t_
4\tCongress\tCongress\tPROPN\tNNP\tNumber=Sing\t3\tobj\t_\tEntity=(2-organization-new)|SpaceAfter=No
5\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

"""


def test_a_body_by_its_function_is_not_gold_and_a_legislature_is_neutral(tmp_path: Path) -> None:
    spans = _gold(tmp_path, BODIES)
    assert [(s["text"], s["label"], s.get("generic")) for s in spans] == [("Congress", "ORGANIZATION", True)]


# An editor's bracket inside a name: each side is a name span.
BRACKETS = """# newdoc id = GUM_interview_brackets
# sent_id = GUM_interview_brackets-1
# text = [Phil] Gramm ran.
1\t[\t[\tPUNCT\t-LRB-\t_\t2\tpunct\t_\tEntity=(1-person-new|SpaceAfter=No
2\tPhil\tPhil\tPROPN\tNNP\tNumber=Sing\t5\tnsubj\t_\tSpaceAfter=No
3\t]\t]\tPUNCT\t-RRB-\t_\t2\tpunct\t_\t_
4\tGramm\tGramm\tPROPN\tNNP\tNumber=Sing\t2\tflat\t_\tEntity=1)
5\tran\trun\tVERB\tVBD\t_\t0\troot\t_\tSpaceAfter=No
6\t.\t.\tPUNCT\t.\t_\t5\tpunct\t_\t_

"""


def test_a_name_across_an_editor_s_bracket_gives_both_parts(tmp_path: Path) -> None:
    assert [(s["text"], s["label"]) for s in _gold(tmp_path, BRACKETS)] == [("Phil", "PERSON"), ("Gramm", "PERSON")]


# The same with the head after the bracket ("Bush" heads "[George] Bush").
BRACKETS_HEAD_AFTER = (
    BRACKETS.replace("brackets", "brackets_after")
    .replace("2\tPhil\tPhil\tPROPN\tNNP\tNumber=Sing\t5\tnsubj", "2\tPhil\tPhil\tPROPN\tNNP\tNumber=Sing\t4\tflat")
    .replace("4\tGramm\tGramm\tPROPN\tNNP\tNumber=Sing\t2\tflat", "4\tGramm\tGramm\tPROPN\tNNP\tNumber=Sing\t5\tnsubj")
)


def test_a_name_across_an_editor_s_bracket_gives_both_parts_whichever_heads_it(tmp_path: Path) -> None:
    spans = _gold(tmp_path, BRACKETS_HEAD_AFTER)
    assert sorted((s["text"], s["label"]) for s in spans) == [("Gramm", "PERSON"), ("Phil", "PERSON")]


# "Professor at Acme University Ada Lovell": UD tags the office a proper noun, heads
# the mention with it and hangs the name on it in apposition; the university's
# own proper nouns are no part of the name.
APPOSED = """# newdoc id = GUM_interview_appos
# sent_id = GUM_interview_appos-1
# text = We met Professor at Acme University Ada Lovell today.
1\tWe\twe\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\tmet\tmeet\tVERB\tVBD\t_\t0\troot\t_\t_
3\tProfessor\tProfessor\tPROPN\tNNP\tNumber=Sing\t2\tobj\t_\tEntity=(1-person-new
4\tat\tat\tADP\tIN\t_\t6\tcase\t_\t_
5\tAcme\tAcme\tPROPN\tNNP\tNumber=Sing\t6\tcompound\t_\tEntity=(2-organization-new
6\tUniversity\tUniversity\tPROPN\tNNP\tNumber=Sing\t3\tnmod\t_\tEntity=2)
7\tAda\tAda\tPROPN\tNNP\tNumber=Sing\t8\tcompound\t_\t_
8\tLovell\tLovell\tPROPN\tNNP\tNumber=Sing\t3\tappos\t_\tEntity=1)
9\ttoday\ttoday\tNOUN\tNN\tNumber=Sing\t2\tobl:tmod\t_\tSpaceAfter=No
10\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

"""


def test_a_name_in_apposition_to_an_office_is_gold_without_the_office_s_names(tmp_path: Path) -> None:
    assert [(s["text"], s["label"]) for s in _gold(tmp_path, APPOSED)] == [
        ("Acme University", "ORGANIZATION"),
        ("Ada Lovell", "PERSON"),
    ]
