"""Language data of the lexical judge (:mod:`csp_check.iur.lexical`): everyday English words that
point to a schema value without naming it, by the paper's indirection strategies (§6.1,
Table 4). Written from the English lexicon (hyponyms, synonyms, the people a phrase counts),
keyed by the value or cue word of the SGD schemas, never from the words of a dialogue.

- :data:`HYPONYMS`: a value word → words for kinds, instances or parts of it (a *hyponym swap*:
  "a jazz gig" for music, "my dog" for pets) and near-synonyms (a *synonym swap*: "budget"
  for cheap, "refund" for flexible).
- :data:`PEOPLE_WORDS` / :data:`GROUP_WORDS` / :data:`ALONE`: an *elaboration* of a party size
  ("me, my wife and our twins" is 4).
- :data:`AVERSION`: predicates that turn a cue's polarity ("I'm allergic to cats": pets false).
- :data:`STRATEGY_CUES`: words that mark a *justification* or *small talk* (reported, never
  deciding a value).
"""

from __future__ import annotations

import re

#: Value or cue word (lower case, singular) → words that point to it (regex alternatives, whole words).
HYPONYMS: dict[str, str] = {
    # kinds of events (SGD Events category / event_type)
    "music": r"concerts?|gigs?|bands?|singers?|songs?|rock|jazz|pop|hip[- ]?hop|rap|country|blues|orchestras?"
             r"|symphon(?:y|ies)|dj|musicians?|albums?|tour|live show",
    "sport": r"games?|matchs?|matches|baseball|football|basketball|soccer|hockey|tennis|golf|teams?|stadium"
             r"|league|playoffs?|innings",
    "theater": r"plays?|playwright|broadway|stage|actors?|drama|shakespeare|opera|ballet|musicals?|stand[- ]?up"
               r"|comed(?:y|ian)",
    # prices
    # "affordable", "economical": below the top of the scale, so cheap or moderate (both lists)
    "cheap": r"budget|affordable|bargain|low[- ]?cost|economical(?: pric\w+)?|thrifty|broke|tight on money|save money"
             r"|saving money|won't break the bank|wallet|frugal",
    "inexpensive": r"budget|affordable|bargain|low[- ]?cost|economical(?: pric\w+)?|thrifty|broke|frugal",
    "moderate": r"reasonabl[ey](?: priced)?|mid[- ]?range|average[- ]?pric\w*|intermediate(?:[- ]pric\w+)?"
                r"|not too (?:expensive|cheap|pricey|fancy)|affordable|economical(?: pric\w+)?"
                r"|decent price|middle of the road|without burning",
    "expensive": r"above average|costly|fancy|luxur(?:y|ious)|upscale|high[- ]?end|splurge|treat myself|michelin|fine dining|exclusive"
                 r"|classy|lavish|no expense|money is no",
    "pricey": r"costly|fancy|luxur(?:y|ious)|upscale|high[- ]?end|splurge|treat myself|michelin|fine dining|lavish",
    "free": r"no (?:entry |entrance |admission )?(?:fees?|charge|cost)|without (?:an? )?(?:entry |entrance |admission )?"
            r"(?:fees?|charge|paying)|costs? nothing|doesn't cost|not (?:have to )?pay",
    # places (MultiWOZ area)
    "centre": r"central(?:ly)?(?: located)?|downtown|middle of (?:town|the city|cambridge)|heart of (?:town|the city)",
    # sizes (SGD RentalCars type)
    "compact": r"small|little|tiny|mini|smallest|easy to park",
    "standard": r"intermediate|medium(?:[- ]sized?)?|mid[- ]?size[d]?|regular|average[- ]sized?|normal[- ]sized?|ordinary",
    "full-size": r"spacious|large|big|roomy|biggest|lots of (?:space|room)|plenty of (?:space|room)",
    "suv": r"off[- ]road|four[- ]wheel|4x4|rugged",
    # pets, children, access
    "pet": r"dogs?|cats?|pupp(?:y|ies)|kittens?|puppers?|hamsters?|parrots?|rabbits?|bunn(?:y|ies)|furry"
           r"|four[- ]legged|canine|feline|my (?:lab|poodle|terrier|retriever)",
    "kid": r"sons?|daughters?|toddlers?|bab(?:y|ies)|little ones?|twins|triplets|nieces?|nephews?|grandchildren"
           r"|grandkids?",
    "wheelchair": r"disabled|disability|mobility|handicap(?:ped)?|can't walk|crutches|ramps?",
    "outdoor": r"fresh air|sunshine|garden|open air|under the stars|outside",
    "alcohol": r"beer|wine|cocktails?|drinks|bar|whiskey|vodka|champagne",
    "vegetarian": r"vegans?|meat[- ]?free|plant[- ]based|don't eat meat|no meat|meatless",
    "smoking": r"cigarettes?|cigars?|vap(?:e|ing)|puff",
    "subtitle": r"captions?|closed[- ]captions?|cc",
    "refundable": r"money back|cancel(?:lation)?|change of plans?|plans? (?:change|might change)",
    "live music": r"live (?:band|bands|concerts?|performances?|musicians?|jazz)|band playing",
    # travel classes and fares
    "flexible": r"exchange|refund(?:able)?|change of plans?|plans? (?:change|might change)|reschedul\w+",
    "economy": r"cheapest seat|budget|basic seat|no frills",
    "first": r"most luxurious|top class|best seats? money",
    "business": r"work trip|business trip|laptop|meeting",
    "luxury": r"fancy|limo|limousine|upscale|high[- ]?end|arrive in style|impress",
    "pool": r"share(?:d)? (?:the )?ride|carpool|split the (?:cost|fare)",
    "shared": r"share(?:d)?|strangers?|other passengers|carpool|split the (?:cost|fare)",
    # places of a home (SGD Media / Music playback devices)
    "kitchen": r"cook(?:ing)?|bak(?:e|ing)|dishes|stove|oven|fridge|breakfast|dinner prep",
    "bedroom": r"bed|sleep(?:ing)?|nap|pillow|waking up|lying down",
    "tv": r"couch|sofa|living room|big screen|television",
    # money
    "saving": r"nest egg|rainy day|put (?:some|it) aside|for later|long[- ]term",
    "checking": r"direct deposits?|debit card|everyday (?:spending|expenses)|pay (?:my )?bills|day[- ]to[- ]day",
}
#: Nouns that each add one person to a party ("me and my wife" is 2).
PEOPLE_WORDS = re.compile(
    r"\b(?:wife|husband|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|friend|buddy|pal|colleague|coworker"
    r"|co-worker|boss|son|daughter|mom|mum|mother|dad|father|brother|sister|cousin|aunt|uncle|grandma"
    r"|grandmother|grandpa|grandfather|niece|nephew|roommate|neighbou?r|date|kid|child|baby)\b"
)
#: Nouns that count several people: word → how many.
GROUP_WORDS = {"twins": 2, "triplets": 3, "parents": 2, "grandparents": 2, "couple": 2, "pair": 2, "both of us": 2,
               "the two of us": 2, "the three of us": 3, "the four of us": 4, "the five of us": 5}
#: A number of people beside the speaker ("four of my friends", "3 colleagues"): group 1 is the number.
OTHERS = re.compile(r"\b(\d+|two|three|four|five|six|seven|eight|nine|ten) (?:of my |of our |more |other )?"
                    r"(?:friends|colleagues|coworkers|co-workers|kids|children|sons|daughters|guests|relatives|cousins"
                    r"|buddies|family members|people with me|others)\b")
#: The speaker alone as the one the booking is for ("please book me", "a ticket for me", "one ticket").
FOR_ME = re.compile(r"\bbook (?:it |that |one )?(?:for )?me\b|\b(?:a|one|1) (?:ticket|seat|spot|place|booking) for me\b"
                    r"|\bfor me\b(?! and)")
#: The speaker counts: "me", "I", "myself" (with another person: ``1 +``).
SPEAKER = re.compile(r"\b(?:i|me|myself|i'm|i'll)\b")
#: Words that say the speaker is alone (a party of 1).
ALONE = re.compile(r"\b(?:alone|by myself|just me|just myself|only me|only myself|solo|on my own|just for me|only for me|party of one)\b")
#: Predicates that turn the polarity of what follows ("I'm allergic to dogs": pets false).
AVERSION = re.compile(r"\b(?:allergic|allergy|allergies|hate|can't stand|cannot stand|afraid of|scared of|avoid"
                      r"|away from|bothers? me|dislike|intolerant|sensitive to)\b")
#: Words before a cue that permit it ("no restriction for smoking": smoking allowed).
PERMITS = re.compile(r"\bno (?:restrictions?|ban|bans|rules?|problem|issue) (?:on|for|against|about|with)\s+(?:\w+\s+)?$")
#: A two-digit year ("from '15") and a year counted back ("six years back").
SHORT_YEAR = re.compile(r"(?<![\w'])'(\d\d)\b")
YEARS_BACK = re.compile(r"\b(\d+|" + "|".join("one two three four five six seven eight nine ten eleven twelve".split())
                        + r"|a) years? (?:ago|back|before|earlier)\b|\blast year\b")
#: Cues of the strategies that do not decide a value: a reason given, chat beside the request.
STRATEGY_CUES = {
    "justification": re.compile(r"\b(?:because|since|so that|so i|as i|in case|that way|otherwise|'cause|cause)\b"),
    "small talk": re.compile(r"\b(?:so cute|love|adore|lovely|excited|can't wait|by the way|you know|honestly)\b|!"),
}
#: Words of a name that say its kind, not which one ("acorn guest house" is named by "acorn").
GENERIC_NAME_WORDS = frozenset({"restaurant", "hotel", "guest", "house", "guesthouse", "bed", "breakfast", "airport",
                                "college", "museum", "church", "centre", "center", "city", "theatre", "gallery", "park",
                                "pool", "cafe", "bar", "pub", "the", "a", "an", "of", "and"})
#: Words with no content (the judge's content words are the others).
STOP_WORDS = frozenset(
    "a an the and or but if of to in on at for with from by about as into like through over after before"
    " i me my we our us you your he she it they them their is are was were be been being am do does did"
    " have has had will would can could should may might must shall not no yes please thanks thank hi hello"
    " want need like find get some any that this these those there here what which who how when where"
    " just really also very so too one two three all".split()
)
