"""Everyday English words a question says that are never a misspelling of a layer's name.

A did-you-mean offers the layer phrase closest to a word it could not read (rapidfuzz ratio
80 or more, ``_reading._suggest``). A short everyday word is one letter from many names:
"bought" scores 91 against the TPC-DS store name 'ought' (one letter dropped: 2 * 5 / 11), so
"how many customers bought in 2002" was asked "did you mean 'ought'?" (outside tryout 37). A
word listed here is left unread as it is (asked back or abstained on), never "corrected".

The list: the forms of English's irregular verbs (the past tenses a question about sales,
orders and visits uses, "bought", "sold", "spent", "paid"), and the regular verbs and everyday
words such questions say. A word the layer itself defines is read before this list is asked.
"""

from __future__ import annotations

__all__ = ["COMMON_WORDS"]

_IRREGULAR = """
    arise arose arisen awake awoke awoken bear bore borne beat beaten become became begin
    began begun bend bent bet bid bind bound bite bit bitten bleed bled blow blew blown break
    broke broken breed bred bring brought build built burn burnt burst buy bought catch caught
    choose chose chosen cling clung come came cost creep crept cut deal dealt dig dug draw drew
    drawn dream dreamt drink drank drunk drive drove driven eat ate eaten fall fell fallen feed
    fed feel felt fight fought find found flee fled fling flung fly flew flown forbid forbade
    forbidden forget forgot forgotten forgive forgave forgiven freeze froze frozen get got
    gotten give gave given go went gone grind ground grow grew grown hang hung hear heard hide
    hid hidden hit hold held hurt keep kept kneel knelt know knew known lay laid lead led lean
    leant leap leapt learn learnt leave left lend lent let lie lay lain light lit lose lost
    make made mean meant meet met mistake mistook mistaken pay paid prove proven put quit read
    ride rode ridden ring rang rung rise rose risen run ran say said see saw seen seek sought
    sell sold send sent set sew sewn shake shook shaken shed shine shone shoot shot show shown
    shrink shrank shrunk shut sing sang sung sink sank sunk sit sat sleep slept slide slid
    speak spoke spoken speed sped spend spent spin spun spit spat split spread spring sprang
    sprung stand stood steal stole stolen stick stuck sting stung stink stank strike struck
    swear swore sworn sweep swept swim swam swum swing swung take took taken teach taught tear
    tore torn tell told think thought throw threw thrown understand understood wake woke woken
    wear wore worn weep wept win won wind wound write wrote written
"""

_EVERYDAY = """
    ought able also always another anything away back because before behind being below
    beside best better beyond bought buys buying buyer buyers came cannot each else enough
    even every everything few first former last later latter least less little long many
    more most much near never next often once only other others over own past rather same
    several should since some something such than their them then there these they thing
    things those though through thus under upon very were what when where which while who
    whole whom whose with within without would year years yet
    purchase purchased purchases purchasing order ordered ordering orders ship shipped
    shipping ships pay pays paying return returned returning returns cancel cancelled
    canceled cancelling visit visited visiting visits rent rented renting book booked booking
    spend spends spending sell sells selling sale sales deliver delivered delivering use used
    using uses open opened close closed join joined sign signed register registered hire
    hired start started end ended own owned earn earned save saved lose lost happen happened
    live lived work worked play played watch watched call called
"""

COMMON_WORDS = frozenset((_IRREGULAR + _EVERYDAY).split())
