"""What is said beside a person's name: an age ("daughter Rose (19)", "Mother,
Vesna Kadić, 71, lives in", "Ketsia is 4.", "DANIEL VESPERMAN, WAS 23.", "Ernesto
should be 43 today"), an affiliation ("Isabel Ruiz of Heaven Sent Gaming"), a
nickname tied to the name ("Flex is Keyon Hairston.", `nicknames_beside_names`: PERSON
spans of the cues' source) or given when asked ("What did people call you?⏎A. Teeth."),
the name again in its own script ("Jeong Myeong-ok (정명옥)").

A bare number is an age only where a person is its subject, which the number's own
pattern cannot know; the merged PERSON spans do (the model's, the cues', the
lists'). So this reads the words right after each person's span, once the spans
are merged, and proposes the number as an AGE (source "patterns": a rule found
it). Plain data in, plain data out.

A count goes on with its noun ("Smith was 12 feet away", "Jones was 5 minutes
late") and is none: the number must end its clause or be followed by a word that
dates it ("today", "now", "when", "years").
"""

import re
from bisect import bisect_left

from pipelines.candidate import Candidate
from pipelines.detection import places
from pipelines.gazetteers import is_common_word, is_given_name, is_person_given_name, is_stop_word
from pipelines.lexicons import (
    AGE_NUMBER_WORDS,
    CALENDAR_WORDS,
    DETERMINERS,
    FAMILY_RELATIONS,
    KIN_NAMES,
    NOT_A_COUNT,
    RELATIONS,
    REPLY_WORDS,
    ROLE_WORDS,
    TITLE_WORDS,
)

SOURCE = "patterns"
_MODELS = frozenset({"spacy", "presidio", "propagation"})
# An age is a person's: up to this many years.
MAX_AGE = 119
_NUMBER = rf"(?:\d{{1,3}}|{AGE_NUMBER_WORDS})"
# What may follow an age said of a person: the clause's end, or a word that dates or
# extends it ("in" and "at" are left out: "Ms. Patel was 3 in line").
# "Mr. Teixeira was 23 at the time of the offense": the time it dates (not "Officer
# Lane was 1 at the time, lead car").
_AGE_ENDS = (
    r"(?=[ \t]*(?:[.,;:!?)\n]|$|(?:years?|yrs?|today|now|then|this|next|when|and|but|so|with|or)\b"
    r"|at[ \t]+the[ \t]+time[ \t]+of\b))"
)
# "Rose (19)", "Vesna Kadić, 71, lives": a number in brackets or between commas is
# an age only after a kin word ("daughter Rose (19)", "Mother, Vesna Kadić, 71,");
# after a bare name it may be a juror's, an exhibit's or a list's number.
# "daughter Rose (19, a student)": the bracket may go on after a comma and a word (not
# "Carla Mendes (45, 12-20)", a transcript's page and lines).
_BRACKETED = re.compile(
    r"[ \t]*\([ \t]*(?P<paren>\d{1,3})[ \t]*(?:\)|,[ \t]+(?=[a-z]))|,[ \t]*(?P<apposed>\d{1,3}),[ \t]+(?=[a-z])"
)
# After a bare name, a number in brackets or between commas is an age only where words
# that describe a person follow it ("Ruffin, 34, a customer", "Gaither, twenty-two,
# who", "Henry (nine) lives", "Ozie Bascomb, seventy-four, of Olive Branch",
# "Thandiwe (31, in SICU)"): after a bare name a number is as often a score, a jersey's,
# a rating, a seat, a unit's, a bed's or a page ("Crosby (87) with the goal", "Onana,
# 6, had little to do", "Sgt. Molina, 21, at the perimeter", "Bed Whitlock (12) with
# sepsis", "Hargrove, 12, of the complaint"). Not at a line's end, where an index gives
# a page ("Gloria Perez (45)"), nor after a juror's or an exhibit's word (`_SEAT_BEFORE`).
_DESCRIBED = (
    # ("who were excused" says it of several: "Martinez, 4, and Hoang, 11, who were".)
    r"(?-i:who(?![ \t]+(?:were|are)\b)|whose|a|an|born|owner|lives|lived|living|resides|resided|residing)\b"
    r"|(?-i:of)[ \t]+(?:\d|(?-i:[A-Z]))"
)
_BRACKETED_BARE = re.compile(
    rf"[ \t]*\([ \t]*(?P<paren>{_NUMBER})[ \t]*(?:\),?[ \t]+(?={_DESCRIBED})|,[ \t]+(?={_DESCRIBED}|(?-i:in)\b))"
    rf"|,[ \t]*(?P<apposed>{_NUMBER}),\s+(?={_DESCRIBED})",
    re.IGNORECASE,
)
# After a full name, a number between commas before a verb of being or living
# ("Lowell Petrakis, 41, was closing the bar"): an age. Not before "had": a player's
# rating ("Andre Onana, 6, had little to do").
_APPOSED_BEFORE_A_VERB = re.compile(
    rf",[ \t]*(?P<apposed>{_NUMBER}),[ \t]+(?=(?:was|is|died|lived|lives|worked|works|remains)\b)",
    re.IGNORECASE,
)
# Below this an apposed number before "was" is as often a jersey's, a list's or a
# car's ("Derek Jeter, 2, was the captain", "Officer Dan Reyes, 12, was dispatched").
_APPOSED_AGE_MIN = 13
_APPOSED_IN_WORDS = re.compile(rf",[ \t]*(?P<apposed>{AGE_NUMBER_WORDS}),[ \t]+(?=(?-i:[a-z]))", re.IGNORECASE)
# Below thirteen a number in words after a name is as often a count said aloud.
_YOUNG_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve".split())
_A_TITLE_BEFORE = re.compile(rf"(?i:\b(?:{'|'.join(sorted(TITLE_WORDS))}))\.?[ \t]+$")


def _an_adult_s_apposed_age(text: str, span: Candidate, limit: int) -> re.Match[str] | None:
    """The age between commas after a full name, before a verb of being; none after a
    rank or a title, where the number is as often a badge's or a car's ("Officer Dan
    Ross, 77, was the first to arrive"). Said in words it is an age whatever comes
    after it or before the name ("a Mrs. Ernestine Pruitt, seventy-eight, taken by
    ambulance"): no badge, car or list numbers anyone in words."""
    if len(span.text.split()) < 2:
        return None
    worded = _APPOSED_IN_WORDS.match(text, span.end, limit)
    if worded is not None and worded.group("apposed").lower() not in _YOUNG_WORDS:
        return worded
    if _A_TITLE_BEFORE.search(text, max(0, span.start - 16), span.start):
        return None
    match = _APPOSED_BEFORE_A_VERB.match(text, span.end, limit)
    if match is None or (match.group("apposed").isdigit() and int(match.group("apposed")) < _APPOSED_AGE_MIN):
        return None
    return match


_SEAT_BEFORE = re.compile(
    r"(?i)\b(?:jurors?|seat|no\.|number|exhibits?|page|line|count|tab|item|lot|unit|room)\b[^\n]*$"
)
_TALLIED_BEFORE = re.compile(r"\(\d{1,3}\)[ \t]*,[ \t]*$")
# A bracketed or apposed number up to this is an age (a cricketer's "O'Gorman, 109,"
# is his score).
_BARE_MAX = 99
_SEAT_WORD = re.compile(r"(?i)(?:jurors?|exhibits?)\b")
# "Ketsia is 4.", "DANIEL VESPERMAN, WAS 23.", "Ernesto should be 43 today".
# "Garrett would have been fifty-three", "Ricky Lynn Vann, then 22, carried",
# "Kaylani's⏎nine, she's at" (the verb contracted; then the clause must end), the
# age on the next line, after its printed number ("Annie is⏎12  thirty-four.").
_LINE_GAP = places.LINE_GAP
_SAID = re.compile(
    # The verb may open the next line ("Siavash⏎15  is thirty-four now"); "Journey, who
    # is⏎12  nine," says it too.
    rf"(?:,?{_LINE_GAP}(?:is|was|turned|turns|(?:will|would|should)[ \t]+(?:have[ \t]+been|be))"
    r"|,[ \t]+(?:then|now)|,\s+who[ \t]+(?:is|was))"
    rf"{_LINE_GAP}(?:(?:only|just|about|almost|nearly|maybe|now)[ \t]+)?(?P<said>{_NUMBER}){NOT_A_COUNT}{_AGE_ENDS}"
    rf"|['’]s{_LINE_GAP}(?P<contracted>{_NUMBER})(?=[ \t]*(?:[.,;!?]|years?[ \t]+old\b))",
    re.IGNORECASE,
)
_KIN_BEFORE = re.compile(rf"(?i)\b(?:{RELATIONS})s?\b[ \t,]*(?:(?-i:[A-Z])[\w'’-]*[ \t]*){{0,3}}$")
# A family's word and the name may stand on two lines ("and son⏎Luka (12)", "Mother,
# Vesna⏎Kadić, 71,"); a role's may head a list there ("Witnesses called by the victim⏎
# Gloria Perez (45)", an index's page).
_FAMILY_ABOVE = re.compile(
    rf"(?i)\b(?:{FAMILY_RELATIONS})s?\b[ \t,]*\n?[ \t]*(?:(?-i:[A-Z])[\w'’-]*[ \t]*\n?[ \t]*){{0,3}}$"
)
# How far after a name its age may stand, and before it its kin word.
_REACH = 40
_KIN_REACH = 40


def ages_beside_names(text: str, spans: list[Candidate]) -> list[Candidate]:
    """AGE candidates for the numbers said as a person's age right after a PERSON
    span (`_SAID`, `_BRACKETED` after a kin word, or `_BRACKETED_BARE` where words that
    describe a person follow the number), none where an AGE or a rule's
    span already covers the number (a model's guess there, "43" as a TIME, is left
    to the merge)."""
    taken = sorted((s.start, s.end) for s in spans if s.label == "AGE" or not set(s.sources) <= _MODELS)
    starts = [a for a, _ in taken]
    longest = max((b - a for a, b in taken), default=0)
    found: dict[tuple[int, int], Candidate] = {}
    for span in spans:
        if span.label != "PERSON":
            continue
        limit = min(len(text), span.end + _REACH)
        match = _SAID.match(text, span.end, limit)
        group = "said" if match is None or match.group("said") is not None else "contracted"
        kin_at = max(0, span.start - _KIN_REACH)
        if match is None and (
            _KIN_BEFORE.search(text, kin_at, span.end) or _FAMILY_ABOVE.search(text, kin_at, span.end)
        ):
            match = _BRACKETED.match(text, span.end, limit)
            group = "paren" if match is not None and match.group("paren") is not None else "apposed"
        # (The line before the name, up to a reach: a text of one long line stays linear.)
        line_at = max(text.rfind("\n", max(0, span.start - _KIN_REACH), span.start) + 1, span.start - _KIN_REACH, 0)
        # (A model may take the seat's word into the name: "Exhibits Smith (12)".)
        bare = False
        if match is None and not (
            _SEAT_BEFORE.search(text, line_at, span.start) or _SEAT_WORD.match(text, span.start, span.end)
        ):
            match = _BRACKETED_BARE.match(text, span.end, limit)
            if match is None:
                match = _an_adult_s_apposed_age(text, span, limit)
            group = "paren" if match is not None and match.groupdict().get("paren") else "apposed"
            bare = match is not None
            if match is not None and _TALLIED_BEFORE.search(text, max(0, span.start - 12), span.start):
                match = None  # the tally's last: "Honiball (2), Joubert (3)."
        if match is None:
            continue
        start, end = match.span(group)
        value = match.group(group)
        if value.isdigit() and not 0 < int(value) <= (_BARE_MAX if bare else MAX_AGE):
            continue
        if value.isdigit() and int(value) < 13 and "\n" in text[span.end : start]:
            continue  # "Juror Andrea Lee⏎14  is 4, Your Honor": a seat past a line's end
        # The spans that may overlap [start, end) start after start - longest.
        first = bisect_left(starts, start - longest)
        if any(a < end and start < b for a, b in taken[first : bisect_left(starts, end)]):
            continue
        found[(start, end)] = Candidate(start, end, "AGE", value, (SOURCE,), 0.8, "pattern:age_beside_name")
    return list(found.values())


# "Mario J. Lucero and Isabel Ruiz of Heaven Sent Gaming", "Dana Cole of the Fresno
# Bee": a person's full name, "of", then capitalised words on the same line.
_AFFILIATION = re.compile(
    r"[ \t]+of[ \t]+(?:the[ \t]+)?(?P<org>[A-Z][\w'’&.-]*(?:[ \t](?:&[ \t])?[A-Z][\w'’&.-]*){0,4})(?![\w'’-])"
)


_CALENDAR = re.compile(rf"(?i)(?:{CALENDAR_WORDS})\b")


def affiliations_after_names(text: str, spans: list[Candidate]) -> list[Candidate]:
    """ORGANIZATION candidates (a cue's: "cue:affiliation") for what a full name
    is "of": not a place (known or place-shaped: "Mary Smith of Fresno County"),
    a role or one common word ("Jane Doe of Counsel"), nor another person ("of
    John"); none where a rule's span already starts there (a model's guess there
    gains the cue as its second signal)."""
    starts = sorted(s.start for s in spans if not set(s.sources) <= _MODELS)
    # A name the model reads as a place anywhere in the document is a town ("Luis
    # Ortega of Dos Palos … grew up in Dos Palos").
    towns = {" ".join(s.text.split()) for s in spans if s.label == "LOCATION"}
    found: dict[tuple[int, int], Candidate] = {}
    for span in spans:
        if span.label != "PERSON" or len(span.text.split()) < 2:
            continue
        match = _AFFILIATION.match(text, span.end, min(len(text), span.end + 120))
        if match is None:
            continue
        start, end = match.span("org")
        name = match.group("org").rstrip(".")
        end = start + len(name)
        words = name.split()
        if places.is_known_place(name) or places.is_place_shaped(name):
            continue
        if all(w.lower() in ROLE_WORDS for w in words) or (len(words) == 1 and is_common_word(words[0].lower())):
            continue
        if is_person_given_name(words[0]) and not places.has_institution_word(name):
            continue  # "Smith of John Doe's office": a person
        if " ".join(words) in towns or _CALENDAR.match(name):
            continue  # a town the model read elsewhere; "Marcus Hill of Tuesday's group"
        # One word is an organization only with an organization word ("Frank Ortiz of
        # Ortiz" is no firm, whatever the model guessed).
        if len(words) == 1 and not places.has_institution_word(name):
            continue
        if bisect_left(starts, start) < bisect_left(starts, end):
            continue  # a rule's span is there already
        found[(start, end)] = Candidate(start, end, "ORGANIZATION", name, ("cues",), 0.75, "cue:affiliation")
    return list(found.values())


# One-word answers that say something of the person, not what they are called.
_NO_NICKNAMES = frozenset(
    """deceased unknown dead gone sure later maybe never once twice again both neither probably possibly perhaps
    sometimes usually always mm-hmm uh-huh um uh hmm objection police security stranger customer dealer supplier
    driver""".split()
)
_RELATION = re.compile(rf"(?:{RELATIONS})s?")
# A nickname said to be a full name ("Spooky is Tremayne⏎24  Wimbush", "Flex is Keyon
# Hairston"): one capitalised word, "is", then the person's full name.
_EQUATED_BEFORE = re.compile(r"(?<![\w'’.-])(?P<v>[A-Z][a-z][\w'’]*)[ \t]+is[ \t]+$")
# The name ends its clause: not "Spanish is Maria Lopez's first language".
_NAME_ENDS_CLAUSE = re.compile(r"[ \t]*(?:[.,;:!?)]|\n|$)")
# The answer to what someone is called: its first word, a name ('A.   Teeth.').
_NICKNAME_ANSWERED = re.compile(
    rf"\?{places.LINE_END}(?:{places.PRINTED_LINE_NUMBER})?A\.?[ \t]+"
    r"(?P<v>[A-Z][a-z][\w'’-]*(?:[ ][A-Z][a-z][\w'’-]*)?)\.(?=\s|$)"
)


# A question about what people at large call someone ("What did people call you?",
# "What do they call him?"), answered by the name alone: not "What did he call you?"
# (an insult), "Where were you when you called her?" (a telephone).
_CALL_QUESTION = re.compile(
    r"(?i:\bwhat[ \t]+(?:do|did|does|would)[ \t]+(?:people|they|everybody|everyone|folks|friends)[ \t]+"
    r"call[ \t]+(?:you|him|her|them))[ \t]*\?"
)


# A name written again in its own script in brackets right after its romanized form,
# as a record gives it ("Jeong Myeong-ok (정명옥)", "Tanaka Hanako (田中 花子)"): Hangul,
# Han (with "々"), kana; two to four of them, or a family name and a given name a space
# apart. Not a sentence of its own after a name ("Bye Jisoo. 안녕."): a word as often.
_NATIVE = "\u1100-\u11ff\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_NATIVE_RUN = rf"[{_NATIVE}]{{2,4}}|[{_NATIVE}]{{1,3}}[ \u3000][{_NATIVE}]{{1,3}}"
_NATIVE_NAME_AFTER = re.compile(rf"[ \t]{{0,20}}[(（](?P<v>{_NATIVE_RUN})[)）]")
# The family names a Chinese, Japanese or Korean name opens with, in its own script: a
# name's, not a word's ("律师", "翻译", "통역", "감사합니다" open with none). The commonest
# Chinese (simplified and traditional) and Korean ones, and Japanese names' first kanji.
_FAMILY_NAME_OPENERS = frozenset(
    "王李张張刘劉陈陳杨楊黄黃赵趙吴吳周徐孙孫马馬朱胡郭何高林罗羅郑鄭梁谢謝宋唐许許韩韓冯馮邓鄧曹彭曾肖萧蕭田董袁潘"
    "于蒋蔣蔡余杜叶葉程苏蘇魏吕呂丁任沈姚卢盧姜崔钟鍾谭譚陆陸汪范金石廖贾賈夏韦韋付方白邹鄒孟熊秦邱江尹薛闫閻段雷侯"
    "龙龍史陶黎贺賀顾顧毛郝龚龔邵万萬钱錢严嚴覃武戴莫孔向汤湯区區邝鄺伍麦麥翁温溫欧歐甘柯卓关關"
    "김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진지엄채원천방공현함변염여추도소석선설마길연위표명기반라왕금옥육인맹제모탁국어은편용예봉경"
    "佐鈴高伊渡山小加吉松井木林清斎阿池橋森石前藤岡坂村後近遠青原野長島"
)
# What ends no one's name: words of address and kin ("Wong 先生", "김 사장", "이모"), and
# the heads of a hospital's, a school's, a bank's, a church's name ("서울대병원", "東京大学").
_NATIVE_NOT_A_NAME = re.compile(
    r"(?:先生|小姐|女士|さん|様|さま|くん|ちゃん|君|씨|님|오빠|언니|형|누나|선생님|사장|사모|이모|삼촌|고모|할머니|할아버지"
    r"|병원|대학교|대학|은행|교회|센터|학교|大学|大學|医院|醫院|银行|銀行|公司|中心|学校|學校|病院)$"
)


def native_script_names(text: str, spans: list[Candidate]) -> list[Candidate]:
    """PERSON candidates (source "patterns") for a name's own script right after it,
    opening with a family name and no word of address."""
    found = []
    for span in spans:
        if span.label != "PERSON":
            continue
        match = _NATIVE_NAME_AFTER.match(text, span.end)
        if match is None:
            continue
        start, end = match.span("v")
        name = text[start:end]
        doubled = len(name) == 2 and name[0] == name[1]  # "谢谢", "哈哈"
        if name[0] not in _FAMILY_NAME_OPENERS or doubled or _NATIVE_NOT_A_NAME.search(name):
            continue
        found.append(Candidate(start, end, "PERSON", name, (SOURCE,), 0.9, "pattern:native_script"))
    return found


def _named_mid_sentence(text: str, word: str, at: int) -> bool:
    """`word` (written at `at`) is written with its capital inside a sentence
    elsewhere too ("Pressure, Flex, Spooky,", "with Ghost"), not after an article or a
    possessive ("the Tenant"): a name the witness uses."""
    inside = re.compile(rf"(?<![\w'’-])(?P<before>[a-z]+|,){_LINE_GAP}{re.escape(word)}(?![\w'’-])")
    return any(m.end() - len(word) != at and m.group("before") not in DETERMINERS for m in inside.finditer(text))


def nicknames_beside_names(text: str, spans: list[Candidate]) -> list[Candidate]:
    """PERSON candidates (a cue's) for what a witness calls someone, where the text
    ties it to the person: "Flex is Keyon Hairston." (a word the text writes as a
    name inside a sentence elsewhere, "Pressure and Flex caught him"), or the answer
    to what people call someone ("What did people call you?⏎A. Teeth."). Not a
    pronoun, a role, a relation or a function word ("That is John Smith", "Mom is
    Jane Smith"), nor a place the lists know. Nothing is read from a question that is
    a name alone: its one-word answer is as often a place or a state ("Q. Marcus
    Bell?⏎A. Upstairs.")."""
    taken = [(s.start, s.end) for s in spans]
    found: dict[tuple[int, int], Candidate] = {}

    def propose(start: int, end: int, asked: bool = False) -> None:
        word = text[start:end]
        first = word.split()[0]
        folded = first.lower()
        if folded in ROLE_WORDS or folded in REPLY_WORDS or folded in _NO_NICKNAMES or is_stop_word(first):
            return  # "A.   Correct.", "A.   Deceased.", "That is John Smith"
        if _RELATION.fullmatch(folded) or folded.replace("-", "") in KIN_NAMES or places.is_known_place(word):
            return  # "Mom is Jane Smith", "A.   Cousin."
        if any(s < end and start < e for s, e in taken):
            return  # a span is there already
        if not asked and not is_given_name(first) and not _named_mid_sentence(text, word, start):
            return  # "Landlord is Ephraim Yoder", "Prescriber is Jane Roe": no name the text uses
        rule = "cue:nickname_answered" if asked else "cue:nickname_equated"
        found[(start, end)] = Candidate(start, end, "PERSON", word, ("cues",), 0.8, rule)

    for span in spans:
        if span.label != "PERSON" or len(span.text.split()) < 2:
            continue
        before = _EQUATED_BEFORE.search(text, max(0, span.start - 40), span.start)
        if before is not None and _NAME_ENDS_CLAUSE.match(text, span.end):
            propose(*before.span("v"))
    for question in _CALL_QUESTION.finditer(text):
        answer = _NICKNAME_ANSWERED.match(text, question.end() - 1, min(len(text), question.end() + 80))
        if answer is not None:
            propose(*answer.span("v"), asked=True)  # what the question asked is a name
    return list(found.values())
