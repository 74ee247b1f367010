"""The reader's closed word lists: grammar words, function words, number words, derived measures.

Every entry is a canonical form (``canonical``: lower case, American spelling). A word in none
of these lists and not in the layer's lexicon is an unread content word.
"""

from __future__ import annotations

__all__ = ["DERIVED", "FUNCTION_WORDS", "KEYWORDS", "NUMBER_WORDS"]

# A metric phrase followed by one of these names a different, derived measure
# ("net revenue retention", "order count growth"), which the layer does not define.
DERIVED = frozenset(
    {
        "retention",
        "rate",
        "ratio",
        "margin",
        "growth",
        "share",
        "churn",
        "lifetime",
        "acquisition",
        "satisfaction",
        "score",
        "forecast",
        "target",
        "budget",
    }
)

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
}


def _k(kind: str, payload: str, *phrases: str) -> dict[tuple[str, ...], tuple[str, str]]:
    return {tuple(p.split()): (kind, payload) for p in phrases}


KEYWORDS: dict[tuple[str, ...], tuple[str, str]] = {
    **_k(
        "NEG",
        "not",
        "excluding",
        "exclude",
        "excludes",
        "excluded",
        "except",
        "except for",
        "other than",
        "not",
        "not in",
        "not from",
        "not including",
        "excluding all",
        "outside",
        "outside of",
        "without",
        "excl",
        "ex",
        "apart from",
        "aside from",
        "but not",
        "leaving out",
        "leave out",
        "omitting",
        "non",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "didn't",
        "don't",
        "doesn't",
        "haven't",
        "hasn't",
        "never",
        "neither",
        "nor",
        "no",
    ),
    **_k("SEP", "and", "and", "or", "plus", "as well as", "vs", "versus", "v", "and/or"),
    **_k(
        "BY",
        "by",
        "by",
        "per",
        "each",
        "for each",
        "for every",
        "every",
        "across",
        "broken down by",
        "break down by",
        "breakdown by",
        "split by",
        "grouped by",
        "group by",
        "broken out by",
        "by each",
        "in each",
        "within each",
    ),
    **_k(
        "TOP",
        "top",
        "top",
        "highest",
        "most",
        "the most",
        "largest",
        "biggest",
        "best",
        "greatest",
        "max",
        "maximum",
        "leading",
        "strongest",
        "best performing",
        "top performing",
        "most successful",
    ),
    **_k(
        "BOTTOM",
        "bottom",
        "bottom",
        "lowest",
        "least",
        "fewest",
        "the fewest",
        "the least",
        "smallest",
        "worst",
        "min",
        "minimum",
        "weakest",
        "worst performing",
    ),
    **_k("WHICH", "which", "which", "which are the", "name the"),
    **_k(
        "COMPARE",
        "compare",
        "compare",
        "compared",
        "compared with",
        "compared to",
        "comparing",
        "comparison",
        "comparison of",
        "against",
        "side by side",
        "respectively",
        "vs.",
    ),
    **_k(
        "GRAIN",
        "month",
        "monthly",
        "per month",
        "by month",
        "each month",
        "month by month",
        "every month",
        "month over month",
        "broken down by month",
    ),
    **_k(
        "GRAIN",
        "quarter",
        "quarterly",
        "per quarter",
        "by quarter",
        "each quarter",
        "quarter by quarter",
    ),
    **_k(
        "GRAIN",
        "year",
        "yearly",
        "annual",
        "annually",
        "per year",
        "by year",
        "each year",
        "year by year",
    ),
    **_k("GRAIN", "week", "weekly", "per week", "by week", "each week"),
    **_k("GRAIN", "day", "daily", "per day", "by day", "each day"),
    # Bare units: a grain only after "by" or "which" ("which month", "top 3 months").
    **_k("UNIT", "month", "month", "months"),
    **_k("UNIT", "quarter", "quarter", "quarters"),
    **_k("UNIT", "year", "year", "years"),
    **_k("UNIT", "week", "week", "weeks"),
    **_k("UNIT", "day", "day", "days"),
    **_k(
        "AGG",
        "aggregate",
        "median",
        "mean",
        "average",
        "avg",
        "mode",
        "percentile",
        "90th percentile",
        "p90",
        "p95",
        "p99",
        "standard deviation",
        "stddev",
        "std",
        "variance",
        "cumulative",
        "running total",
        "moving average",
        "rolling",
        "share of",
        "percentage",
        "percent",
        "proportion",
        "growth",
        "delta",
        "ratio",
        "rate",
    ),
    **_k(
        "ORDER",
        "desc",
        "highest first",
        "largest first",
        "biggest first",
        "most first",
        "descending",
        "in descending order",
    ),
    **_k(
        "ORDER",
        "sort",
        "sorted",
        "ranked",
        "ordered",
        "sorted by",
        "ranked by",
        "ordered by",
        "sort by",
        "rank by",
        "order by",
    ),
    **_k(
        "ORDER",
        "asc",
        "lowest first",
        "smallest first",
        "least first",
        "fewest first",
        "ascending",
        "in ascending order",
    ),
    **_k(
        "CHANGE",
        "down",
        "drop",
        "dropped",
        "drops",
        "fall",
        "fell",
        "fallen",
        "falls",
        "decrease",
        "decreased",
        "decline",
        "declined",
        "shrink",
        "shrank",
        "go down",
        "went down",
    ),
    **_k(
        "CHANGE",
        "up",
        "rise",
        "rose",
        "risen",
        "grow",
        "grew",
        "grown",
        "increase",
        "increased",
        "go up",
        "went up",
        "climb",
        "climbed",
    ),
    **_k("CHANGE", "any", "change", "changed", "difference", "differ", "differed", "moved"),
    **_k("COUNT", "count", "how many", "number of", "count of", "total number of", "no . of"),
}

FUNCTION_WORDS = frozenset(
    """
    a an the of in on at for to from during within over into with about as is are was were be
    been being am do does did done doing have has had having what what's whats whats' how much
    show me give tell list report display get got see find pull fetch provide return bring up
    please can could would will should shall may might must i we our us you your they their it
    its this that these those there here then than so far all any some total overall sum
    altogether combined in total grand whole entire full value values figure figures amount
    amounts number numbers numbers' just only also too overall much many make made earn earned
    generate generated bring brought do let let's know like want need looking look hey hi hello
    thanks thank kindly quick quickly roughly approximately around about exactly our company
    business firm we've we're i'd i'm breakdown break down broken out split across period
    periods time timeframe window date dates range calendar level levels data result results
    stats statistics info information kpi metric metrics measure figure summary summarise
    summarize overview view breakdown while where when who whom whose why which-ever both either
    same one's it's that's there's what'd s t had happen happened happening going go went come
    came up down out off through throughout until till between among via under
    it total-wise wise basically actually currently just now today yet still ever already again
    recorded record records booked logged registered achieved reached generated produced
    realised realized brought did we get see happened came showing shown both yo new sell
    sold selling customer customers client clients write wrote writing racked rack old column
    columns field fields dated
    """.split()
)
