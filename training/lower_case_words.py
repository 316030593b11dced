"""Build rules/<lang>/lower_case_words.txt: words a language writes in lower case and that name nobody.

A capitalised word that the language otherwise writes in lower case ("Feedback" starting a sentence,
"Summary" as a heading, "Garden Centre" in title case) is no person's name; resolve/span_repair.py drops a
model PERSON span made only of such words. A word is kept when:

- English: it is a lower-case entry of SCOWL's British and American word lists (Debian's `wbritish` and
  `wamerican`, /usr/share/dict, permissive licence) with no capitalised entry of its own ("feedback" and
  "summary" are kept; "baker" is not, "Baker" is an entry too);
- French: it is a lower-case entry of Dicollecte's French dictionary (hunspell-fr, MPL-2.0; Debian's
  `hunspell-fr-classical`, /usr/share/hunspell/fr.dic), with its plural where the entry takes one, and no
  capitalised entry of its own ("réunion" is kept; "pierre" is not, "Pierre" is an entry too);
- and in both: it is no first name or surname of any locale the generator draws names from (Faker's lists
  and training/synth/names.py's), so that "Archer", "Diamond" or "Blessing" stay names.

    python -m training.lower_case_words --dict /usr/share/dict --hunspell /usr/share/hunspell/fr.dic
"""

from __future__ import annotations

import argparse
from pathlib import Path

import regex

MIN_LENGTH = 3


def english_words(dict_dir: Path) -> set[str]:
    entries: set[str] = set()
    for name in ("british-english", "american-english"):
        for line in (dict_dir / name).read_text(encoding="utf-8", errors="replace").splitlines():
            word = line.strip()
            if word and "'" not in word:
                entries.add(word)
    capitalised = {w.casefold() for w in entries if w[:1].isupper()}
    return {w for w in entries if w.islower() and w not in capitalised}


def french_words(dic: Path) -> set[str]:
    entries: dict[str, str] = {}
    for line in dic.read_text(encoding="utf-8").splitlines()[1:]:
        word, _, flags = line.split(" ", 1)[0].partition("/")
        if word and "'" not in word and " " not in word:
            entries[word] = flags
    capitalised = {w.casefold() for w in entries if w[:1].isupper()}
    words = set()
    for word, flags in entries.items():
        if word.islower() and word not in capitalised:
            words.add(word)
            if flags[:1] in ("S", "X"):  # the entry's plural: "réunion/S." is "réunions" too
                words.add(word + flags[0].lower())
    return words


def known_names() -> set[str]:
    from faker import Faker

    from training.synth.names import EXTRA_ORIGINS, NAME_LOCALES

    names: set[str] = set()
    for locale, _ in NAME_LOCALES:
        for provider in Faker(locale).providers:
            for attr in ("first_names", "first_names_male", "first_names_female", "last_names"):
                values = getattr(provider, attr, None)
                if values:
                    names.update(str(v).casefold() for v in values)
    for first, last in EXTRA_ORIGINS.values():
        names.update(n.casefold() for n in (*first, *last))
    return {part for name in names for part in regex.split(r"[ \-]", name) if part}


def write(path: Path, words: set[str], source: str) -> None:
    kept = sorted(w for w in words if len(w) >= MIN_LENGTH)
    header = f"# Words written in lower case that name nobody ({source}); built by training/lower_case_words.py\n"
    path.write_text(header + "\n".join(kept) + "\n", encoding="utf-8")
    print(f"{path}: {len(kept)} words")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dict", type=Path, default=Path("/usr/share/dict"))
    parser.add_argument("--hunspell", type=Path, default=Path("/usr/share/hunspell/fr.dic"))
    parser.add_argument("--rules", type=Path, default=Path("rules"))
    args = parser.parse_args()
    names = known_names()
    write(args.rules / "en" / "lower_case_words.txt", english_words(args.dict) - names,
          "SCOWL British and American lists, lower-case entries without a capitalised one")
    write(args.rules / "fr" / "lower_case_words.txt", french_words(args.hunspell) - names,
          "Dicollecte's French dictionary, MPL-2.0, lower-case entries without a capitalised one")


if __name__ == "__main__":
    main()
