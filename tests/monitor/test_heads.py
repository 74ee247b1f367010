"""The heads: the saved hybrid walks its trees exactly as scikit-learn does, the text head
learns a separable toy problem and survives a save/load round trip."""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from assay.monitor import BoostedHybrid, TextHead, fit_hybrid, fit_text_head, text_counts


def test_hybrid_matches_sklearn_predict_proba_with_missing_values() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 4))
    x[rng.random(x.shape) < 0.2] = np.nan
    x[:, 3] = np.nan  # a never-observed feature is dropped, not fed as a column
    y = (np.nan_to_num(x[:, 0]) + 0.5 * np.nan_to_num(x[:, 1]) > 0).astype(int)
    ours = fit_hybrid(x, y, seed=1)
    oracle = HistGradientBoostingClassifier(
        max_iter=100, max_depth=3, learning_rate=0.1, early_stopping=False, random_state=1
    ).fit(x[:, :3], y)
    np.testing.assert_allclose(ours.score(x), oracle.predict_proba(x[:, :3])[:, 1], atol=1e-9)
    back = BoostedHybrid.from_dict(ours.to_dict())
    np.testing.assert_allclose(back.score(x), ours.score(x), atol=1e-12)


def test_text_head_separates_and_round_trips() -> None:
    good = [f"QUESTION: q{i} STEP 1 RESULT: 3 rows sample alpha" for i in range(30)]
    bad = [f"QUESTION: q{i} STEP 1 RESULT: error: no such table" for i in range(30)]
    head = fit_text_head(good + bad, [1] * 30 + [0] * 30)
    s = head.score(["STEP 1 RESULT: 2 rows sample alpha", "STEP 1 RESULT: error: no such table"])
    assert s[0] > 0.5 > s[1]
    back = TextHead.from_dict(head.to_dict())
    np.testing.assert_allclose(back.score(good[:3]), head.score(good[:3]), atol=1e-5)


def test_scoring_counts_is_the_dense_tfidf_logistic_of_the_saved_weights() -> None:
    texts = [
        f"QUESTION: q{i} STEP 1 RESULT: {'3 rows' if i % 2 else 'error'} x{i}" for i in range(40)
    ]
    head = fit_text_head(texts, [i % 2 for i in range(40)], C=1.0)
    probe = [*texts[:5], "never seen words entirely", ""]
    counts = text_counts(probe).toarray()
    idf = np.full(counts.shape[1], np.log(1 + head.n_docs) + 1.0)
    idf[head.columns] = head.idf
    coef = np.zeros(counts.shape[1])
    coef[head.columns] = head.coef
    w = counts * idf
    norms = np.linalg.norm(w, axis=1)
    norms[norms == 0] = 1.0
    expected = 1 / (1 + np.exp(-(w @ coef / norms + head.intercept)))
    np.testing.assert_allclose(head.score(probe), expected, rtol=1e-12)
    np.testing.assert_allclose(head.score_counts(text_counts(probe)), expected, rtol=1e-12)
    assert head.C == 1.0


def test_counts_from_cached_words_are_exactly_sklearns_hashing() -> None:
    from sklearn.feature_extraction.text import HashingVectorizer

    texts = [
        "QUESTION: How many singers?\nSTEP 1 SQL: SELECT  count(*) FROM singer",
        "STEP 1 RESULT: 3 rows x 2 cols; sample [('Ann', 1), ('Bo', 2)]\tÜnïcode ß ÄB",
        "",
        "   ",
        "a ab abc abcd " + "x" * 40,
        "SELECT name FROM singer SELECT name FROM singer",  # repeated words count twice
    ]
    kwargs = {"n_features": 2**18, "alternate_sign": False, "norm": None}
    word = HashingVectorizer(
        analyzer="word", ngram_range=(1, 2), token_pattern=r"(?u)\b\w+\b", **kwargs
    )
    char = HashingVectorizer(analyzer="char_wb", ngram_range=(3, 5), **kwargs)
    for _ in range(2):  # cold, then from the cache
        ours = text_counts(texts).toarray()
        ref = np.hstack([word.transform(texts).toarray(), char.transform(texts).toarray()])
        ref[ref > 0] = 1.0 + np.log(ref[ref > 0])
        np.testing.assert_array_equal(ours, ref)
