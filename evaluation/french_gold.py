"""A small French gold set: SYNTHETIC decision-shaped texts (seed 002's labels).

No real French public text (a published decision, a press article) is available
offline here, and a "real" text must not be invented: these three documents are
synthetic, written for this gold set, and every name, address and number in them
is made up. They follow ../shared/annotation-guideline.md (titles and roles outside
the span, every occurrence marked, smallest span) with seed 002's labels: PERSON,
LAWYER, JUDGE_CLERK, ORGANIZATION, COURT, BAR (the bar's place), ADDRESS (the whole
postal address), DATE, PHONE_NUMBER, LICENCE_PLATE, RG (the case number itself).

`python -m evaluation.french_gold` writes evaluation/gold/fr/decisions_synthetic.jsonl;
the annotations are the (label, text) lists below, every whole-word occurrence of
each text marked, so the offsets cannot drift from the texts.
"""

import json
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "gold" / "fr" / "decisions_synthetic.jsonl"

DOCUMENTS: list[tuple[str, str, list[tuple[str, str]]]] = [
    (
        "synthetic-fr-1",
        "COUR D'APPEL DE RENNES\n"
        "2e chambre\n"
        "ARRÊT DU 7 février 2020\n"
        "RG n° 19/04567\n\n"
        "APPELANTE :\n"
        "Mme Amélie ROUSSEL, née le 14 juillet 1982 à Vannes, demeurant 27 boulevard de la Liberté, 35000 Rennes\n"
        "représentée par Maître Hugo BERNARD, avocat au barreau de Rennes\n\n"
        "INTIMÉ :\n"
        "M. Thierry GAUTIER, demeurant 5 impasse des Lilas, 56000 Vannes\n"
        "représenté par Me Laure Mercier, avocate au barreau de Nantes\n\n"
        "COMPOSITION DE LA COUR :\n"
        "M. Olivier FAURE, président\n"
        "Mme Isabelle Renard, conseillère\n"
        "Greffière : Mme Agnès COLIN\n\n"
        "Le 3 septembre 2018, Mme ROUSSEL a vendu à M. GAUTIER un véhicule immatriculé FG-482-KL. "
        "M. Gautier affirme avoir appelé Mme Roussel au 02 99 12 34 56 le 10 septembre 2018. "
        "Me BERNARD fait valoir que le tribunal judiciaire de Vannes a statué le 12/03/2019.\n",
        [
            ("COURT", "COUR D'APPEL DE RENNES"),
            ("DATE", "7 février 2020"),
            ("RG", "19/04567"),
            ("PERSON", "Amélie ROUSSEL"),
            ("DATE", "14 juillet 1982"),
            ("ADDRESS", "27 boulevard de la Liberté, 35000 Rennes"),
            ("LAWYER", "Hugo BERNARD"),
            ("BAR", "Rennes"),
            ("PERSON", "Thierry GAUTIER"),
            ("ADDRESS", "5 impasse des Lilas, 56000 Vannes"),
            ("LAWYER", "Laure Mercier"),
            ("BAR", "Nantes"),
            ("JUDGE_CLERK", "Olivier FAURE"),
            ("JUDGE_CLERK", "Isabelle Renard"),
            ("JUDGE_CLERK", "Agnès COLIN"),
            ("DATE", "3 septembre 2018"),
            ("PERSON", "ROUSSEL"),
            ("PERSON", "GAUTIER"),
            ("LICENCE_PLATE", "FG-482-KL"),
            ("PERSON", "Gautier"),
            ("PERSON", "Roussel"),
            ("PHONE_NUMBER", "02 99 12 34 56"),
            ("DATE", "10 septembre 2018"),
            ("LAWYER", "BERNARD"),
            ("COURT", "tribunal judiciaire de Vannes"),
            ("DATE", "12/03/2019"),
            ("LOCATION", "Vannes"),
        ],
    ),
    (
        "synthetic-fr-2",
        "TRIBUNAL JUDICIAIRE DE BORDEAUX\n"
        "Jugement du 1er octobre 2021 — N° RG : 20/08812\n\n"
        "DEMANDERESSE : la société IMMOBILIÈRE DU LAC, SAS dont le siège est 14 quai des Chartrons, 33000 Bordeaux, "
        "prise en la personne de son président, M. Éric Vasseur\n"
        "représentée par Maître Camille de La Salle, avocat au barreau de Bordeaux\n\n"
        "DÉFENDEUR : M. Kévin LEROY, demeurant 3 allée des Pins, 33600 Pessac, joignable au +33 6 45 78 12 90\n"
        "comparant en personne\n\n"
        "Juge : Mme Valérie Chevalier\nGreffier : M. Antoine BLANC\n\n"
        "M. Leroy occupe le logement depuis mars 2017. La société IMMOBILIÈRE DU LAC lui a délivré un "
        "commandement de payer le 15 janvier 2021. Me de La Salle sollicite l'expulsion de M. LEROY.\n",
        [
            ("COURT", "TRIBUNAL JUDICIAIRE DE BORDEAUX"),
            ("DATE", "1er octobre 2021"),
            ("RG", "20/08812"),
            ("ORGANIZATION", "IMMOBILIÈRE DU LAC"),
            ("ADDRESS", "14 quai des Chartrons, 33000 Bordeaux"),
            ("PERSON", "Éric Vasseur"),
            ("LAWYER", "Camille de La Salle"),
            ("BAR", "Bordeaux"),
            ("PERSON", "Kévin LEROY"),
            ("ADDRESS", "3 allée des Pins, 33600 Pessac"),
            ("PHONE_NUMBER", "+33 6 45 78 12 90"),
            ("JUDGE_CLERK", "Valérie Chevalier"),
            ("JUDGE_CLERK", "Antoine BLANC"),
            ("PERSON", "Leroy"),
            ("DATE", "mars 2017"),
            ("DATE", "15 janvier 2021"),
            ("LAWYER", "de La Salle"),
            ("PERSON", "LEROY"),
        ],
    ),
    (
        "synthetic-fr-3",
        "Cour d'appel de Toulouse, 4e chambre sociale, arrêt du 22 juin 2022, RG n° 21/00345.\n"
        "Mme Fatima BENALI a été engagée le 2 mai 2015 par la SARL TRANSPORTS GARNIER en qualité de conductrice. "
        "Elle a été licenciée le 30 novembre 2019. Le conseil de prud'hommes de Toulouse l'a déboutée. "
        "Mme Benali, représentée par Me Julien ARNAUD, avocat au barreau de Toulouse, soutient que son véhicule "
        "de service, immatriculé 4521 TX 31, était hors d'usage. M. Gérard GARNIER, gérant, le conteste. "
        "Président : M. Philippe MOREL ; greffier : Mme Lucie PERRIN.\n",
        [
            ("COURT", "Cour d'appel de Toulouse"),
            ("DATE", "22 juin 2022"),
            ("RG", "21/00345"),
            ("PERSON", "Fatima BENALI"),
            ("DATE", "2 mai 2015"),
            ("ORGANIZATION", "TRANSPORTS GARNIER"),
            ("DATE", "30 novembre 2019"),
            ("COURT", "conseil de prud'hommes de Toulouse"),
            ("PERSON", "Benali"),
            ("LAWYER", "Julien ARNAUD"),
            ("BAR", "Toulouse"),
            ("LICENCE_PLATE", "4521 TX 31"),
            ("PERSON", "Gérard GARNIER"),
            ("JUDGE_CLERK", "Philippe MOREL"),
            ("JUDGE_CLERK", "Lucie PERRIN"),
        ],
    ),
]


def spans_of(text: str, annotations: list[tuple[str, str]]) -> list[dict]:
    """Every whole-word occurrence of each annotated text, longest texts first so
    that a name inside a longer span ("Vannes" in an address) is not marked twice."""
    taken: list[tuple[int, int]] = []
    spans = []
    for label, value in sorted(annotations, key=lambda a: -len(a[1])):
        for match in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text):
            start, end = match.span()
            if any(s < end and start < e for s, e in taken):
                continue
            taken.append((start, end))
            spans.append({"start": start, "end": end, "label": label, "text": value})
    return sorted(spans, key=lambda s: s["start"])


def records() -> list[dict]:
    return [{"id": id_, "text": text, "spans": spans_of(text, notes)} for id_, text, notes in DOCUMENTS]


def main() -> int:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as handle:
        for record in records():
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.write(f"{sum(len(r['spans']) for r in records())} spans in {len(DOCUMENTS)} documents → {OUT}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
