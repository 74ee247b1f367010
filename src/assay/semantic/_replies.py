"""``ask_back_choices``, ``chosen_reply`` and ``chosen_and_more``: the choices an ask-back
offers, each a whole question to re-ask, and the one a reply names.

Two ask-backs name what they offer and had no choices (outside tryouts 11 and 12: a reply
"yes" or "Germany" to "did you mean 'germany'?" was appended to the typo and asked back again;
"customer regions" to "'region' can mean customers_region or ..." likewise):

- a did-you-mean: one choice, the question with every suggestion put in place of the word it
  was made for ("gross revenue in Germny in 2023" -> "gross revenue in Germany in 2023"), kept
  only when the corrected question has no suggestion left for those words;
- a name that means several dimensions (or metrics): one choice per defined meaning, the
  question with a phrase that reads as that meaning alone put in place of the ambiguous words,
  kept only when it reads with nothing ambiguous, unread or misspelt left.

A reply resolves to a choice (``chosen_reply``) when it is a yes to a did-you-mean, or when it
names exactly one choice (its label, its name, the column the ask-back named, or a phrase that
reads as that dimension and nothing more) with nothing else said. A reply that names one choice
and says more ("Germany in 2024", "yes, by channel") is that choice and the rest
(``chosen_and_more``), the rest composed as a follow-up of the choice's question; a list
("Germany and France") is not. Anything else resolves to nothing, and the caller asks back
again (fail closed): never a guess between choices, never a choice with other words dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assay.semantic._model import SemanticLayer
from assay.semantic._reading import Reading, read
from assay.semantic._resolve import Lexicon, canonical, tokenize

__all__ = [
    "AskBackChoice",
    "ask_back_choices",
    "cased",
    "chosen_and_more",
    "chosen_reply",
    "stored_as",
]


@dataclass(frozen=True)
class AskBackChoice:
    """One choice of an ask-back: what the page's button says, the question it re-asks, and
    what was chosen (``kind`` correction | dimension | metric; ``name`` the layer's name, empty
    for a correction); ``asked`` is the words that were asked back about."""

    label: str
    question: str
    kind: str
    name: str
    asked: str

    @property
    def words(self) -> str:
        """The choice as its question says it: a correction's label without the stored value
        ("Germany" of "Germany (DE)")."""
        if self.kind != "correction":
            return self.label
        return re.sub(r" \([^()]*\)", "", self.label)


_YES = frozenset(
    "yes y yep yeah yup sure ok okay correct right exactly indeed please that it one this "
    "i mean meant do did the a go ahead thanks thank you".split()
)
_AFFIRMATIVE = frozenset("yes y yep yeah yup sure ok okay correct right exactly indeed".split())


def _replace(question: str, words: str, by: str) -> str | None:
    found = re.search(rf"(?<!\w){re.escape(words)}(?!\w)", question, re.IGNORECASE)
    if found is None:
        return None
    return question[: found.start()] + by + question[found.end() :]


def cased(typed: str, suggested: str) -> str:
    """The suggestion capitalised as the word it corrects was ("Germny": "Germany")."""
    if typed[:1].isupper() and typed[1:].islower() and suggested.islower():
        return suggested[:1].upper() + suggested[1:]
    return suggested


def stored_as(phrase: str, lexicon: Lexicon) -> str:
    """The value a suggested phrase stands for, where the column stores it otherwise ("germany"
    -> "DE" of customers.country), else ``""``. A did-you-mean names it, so the choice offered
    is the value as stored: "Germany (DE)" (tryout 26 offered "Germany" alone).

    Example:
        >>> from assay.semantic._model import Dimension
        >>> layer = SemanticLayer(dimensions=(Dimension("country", "t.c", (), ("DE",),
        ...     value_synonyms=(("germany", "DE"),)),))
        >>> stored_as("germany", Lexicon(layer)), stored_as("DE", Lexicon(layer))
        ('DE', '')
    """
    key = tuple(canonical(t.text) for t in tokenize(phrase))
    values = {t.split("=", 1)[1] for k, t in lexicon.entries.get(key, []) if k == "value"}
    if len(values) != 1:
        return ""
    (value,) = values
    return "" if value.casefold() == phrase.casefold() else value


def _corrections(
    question: str, reading: Reading, layer: SemanticLayer, lexicon: Lexicon
) -> list[AskBackChoice]:
    corrected: str | None = question
    suggestions = [(typed, cased(typed, suggested)) for typed, suggested in reading.suggestions]
    for typed, suggested in suggestions:
        corrected = _replace(corrected, typed, suggested) if corrected is not None else None
    if corrected is None:
        return []
    again = read(corrected, layer, lexicon)
    typed_words = {w for w, _ in reading.suggestions}
    if any(w in typed_words for w, _ in again.suggestions):
        return []
    label = " and ".join(
        dict.fromkeys(
            f"{s} ({stored})" if (stored := stored_as(s, lexicon)) else s for _, s in suggestions
        )
    )
    asked = " and ".join(dict.fromkeys(w for w, _ in reading.suggestions))
    return [AskBackChoice(label, corrected, "correction", "", asked)]


def _phrases(kind: str, name: str, layer: SemanticLayer) -> list[str]:
    """Phrases that may name ``kind:name`` alone, most readable first."""
    derived = sorted(
        (d.words for d in layer.derived if d.choices == (f"{kind}:{name}",)),
        key=lambda words: (-len(words.split()), words),
    )  # "customer regions" before "regions": the longer says more
    if kind == "metric":
        return [layer.metric(name).label, *derived, name.replace("_", " "), name]
    column = layer.dimension(name).column.split(".")[-1]
    return list(dict.fromkeys([*derived, name, name.replace("_", " "), column]))


def _reads_as(reading: Reading, kind: str, name: str) -> bool:
    if reading.ambiguous_names or reading.unread or reading.suggestions or reading.ambiguous:
        return False
    if kind == "metric":
        return name in reading.metrics
    return name in reading.groups or any(f.dimension == name for f in reading.filters)


def _meanings(
    question: str, words: str, targets: tuple[str, ...], layer: SemanticLayer, lexicon: Lexicon
) -> list[AskBackChoice]:
    out = []
    for target in targets:
        kind, name = target.split(":", 1)
        if kind not in ("dimension", "metric"):
            continue  # a meaning the layer leaves undefined cannot be chosen
        for phrase in _phrases(kind, name, layer):
            chosen = _replace(question, words, phrase)
            if chosen is not None and _reads_as(read(chosen, layer, lexicon), kind, name):
                out.append(AskBackChoice(phrase, chosen, kind, name, words))
                break
    return out


def ask_back_choices(question: str, layer: SemanticLayer, lexicon: Lexicon) -> list[AskBackChoice]:
    """The choices of a did-you-mean or of a name with several meanings asked back about
    ``question``; empty for any other question (or when no choice reads as itself).

    Example:
        >>> from assay.semantic._model import Dimension, Metric
        >>> layer = SemanticLayer(metrics=(Metric("orders", "number of orders", (), "t",
        ...     "COUNT(*)"),), dimensions=(Dimension("country", "t.c", (), ("Germany",)),))
        >>> [c.question for c in ask_back_choices("number of orders in Germny", layer,
        ...     Lexicon(layer))]
        ['number of orders in Germany']
    """
    reading = read(question, layer, lexicon)
    if reading.suggestions:
        return _corrections(question, reading, layer, lexicon)
    if len(reading.ambiguous_names) == 1:
        words, targets = reading.ambiguous_names[0]
        return _meanings(question, words, targets, layer, lexicon)
    return []


def _folded(text: str) -> list[str]:
    return [canonical(t.text) for t in tokenize(text) if any(ch.isalnum() for ch in t.text)]


def _rest(said: list[str], phrase: list[str]) -> list[str] | None:
    """``said`` without one run of ``phrase``'s words, or ``None`` when it has none."""
    n = len(phrase)
    for start in range(len(said) - n + 1):
        if said[start : start + n] == phrase:
            return said[:start] + said[start + n :]
    return None


def _said_as(choice: AskBackChoice, layer: SemanticLayer) -> list[str]:
    """How a reply may name ``choice``: its label, its name, the column the ask-back named."""
    said_as = {choice.label, choice.words, choice.name, choice.name.replace("_", " ")}
    if choice.kind == "correction":  # the value as stored: "DE" of "Germany (DE)"
        said_as.update(re.findall(r"\(([^()]+)\)", choice.label))
    if choice.kind == "dimension":  # the column the ask-back named: "r_name"
        said_as.add(layer.dimension(choice.name).column.split(".")[-1])
    return sorted(said_as - {""}, key=lambda p: (-len(p), p))


def _names(choice: AskBackChoice, said: list[str], layer: SemanticLayer, lexicon: Lexicon) -> bool:
    """Whether ``said`` names ``choice`` and nothing else (fillers such as "yes" aside)."""
    for phrase in _said_as(choice, layer):
        rest = _rest(said, _folded(phrase))
        if rest is not None and not set(rest) - _YES:
            return True
    if choice.kind == "dimension":  # "customer regions" for customers_region
        words = [w for w in said if w not in _YES]
        alone = read(f"by {' '.join(words)}", layer, lexicon) if words else None
        if alone is not None and _reads_as(alone, *_of(choice)) and _only_grouping(alone):
            return True
    return False


def _only_grouping(reading: Reading) -> bool:
    """Whether ``reading`` says nothing but its grouping ("by customer regions", never "by
    customer regions in 1996": the period would be dropped)."""
    said = (reading.metrics, reading.periods, reading.filters, reading.ranking, reading.grain)
    return len(reading.groups) == 1 and not any(said)


def _of(choice: AskBackChoice) -> tuple[str, str]:
    return choice.kind, choice.name


def chosen_reply(
    reply: str, choices: list[AskBackChoice], layer: SemanticLayer, lexicon: Lexicon
) -> AskBackChoice | None:
    """The one choice ``reply`` names ("yes" when one was offered), or ``None``."""
    said = _folded(reply)
    if not said:
        return None
    if not set(said) - _YES:  # a yes says which only to a did-you-mean (one choice)
        if len(choices) == 1 and choices[0].kind == "correction" and set(said) & _AFFIRMATIVE:
            return choices[0]
        return None
    named = [c for c in choices if _names(c, said, layer, lexicon)]
    return named[0] if len(named) == 1 else None


_LEADING_YES = re.compile(
    r"^\s*(?:yes|yep|yeah|yup|sure|ok|okay|correct|right|exactly)\b[\s,.!:;-]*", re.IGNORECASE
)


def chosen_and_more(
    reply: str, choices: list[AskBackChoice], layer: SemanticLayer
) -> tuple[AskBackChoice, str] | None:
    """The one choice ``reply`` names in words, with more said after or around it ("Germany
    in 2024", "yes, in 2024" to a did-you-mean): the choice and what is left of the reply (a
    follow-up of the choice's question); ``None`` unless exactly one choice is named."""
    if len(choices) == 1 and choices[0].kind == "correction":
        yes = _LEADING_YES.match(reply)
        if yes is not None and reply[yes.end() :].strip():
            return choices[0], reply[yes.end() :].strip()
    found: list[tuple[AskBackChoice, str]] = []
    for choice in choices:
        for phrase in _said_as(choice, layer):
            rest = _replace(reply, phrase, " ")
            if rest is not None:
                found.append((choice, " ".join(_LEADING_YES.sub("", rest).split())))
                break
    if len(found) != 1 or not found[0][1].strip(" ,.!?"):
        return None
    if _LISTED.match(found[0][1]):  # "Germany and France": more than the choice is meant
        return None
    return found[0]


_LISTED = re.compile(
    r"^\W*(?:and|or|plus|as well as|versus|vs|but|not|rather|instead)\b|^\s*[&/+]", re.IGNORECASE
)
