"""The prompts of the IUR paper (Appendix B, proxies; Appendix C, generation), as templates.

Few-shot examples are the paper's own (Table 1, Appendix B and C) and examples of our writing
in their form; none is drawn from a corpus. Each template is filled with ``str.format``.
"""

from __future__ import annotations

UNAMBIGUITY = """You are an expert at evaluating which slot value(s) could be implied by an utterance among a set of candidate values in a task-oriented dialogue. If no values can be eliminated, list all possible values separated by commas.

Examples:

Situation: User wants to make a trip
Slot: Destination country
Possible Values: India, Namibia, Nigeria
Utterance: I'm looking to book a ticket to an African country
Slot Values Implied: Namibia, Nigeria

Situation: User wants to book bus tickets
Slot: Type of fare for the booking
Possible Values: Economy, Economy extra, Flexible
Utterance: I'm looking for tickets that I can exchange or refund in case of a change in plan.
Slot Values Implied: Flexible

Situation: User wants to find an apartment for rent
Slot: Boolean flag indicating if pets are allowed
Possible Values: True, False
Utterance: My dog comes with me everywhere, he is part of the family.
Slot Values Implied: True

Now answer for this input with the implied values only, separated by commas.

Situation: {situation}
Slot: {slot_description}
Possible Values: {values}
Utterance: {utterance}
Slot Values Implied:"""

WORLD_UNDERSTANDING = """On a scale of 1-10, how likely is it that an average six-year-old would be able to link the user utterance to the target slot value?

Examples:

Situation: User wants to make a trip
Slot: Destination country
Possible Values: India, Namibia, Nigeria
Utterance: I'm looking to book a ticket to an African country
World Knowledge Level: 10

Situation: User wants to find a restaurant
Slot: Price range for the restaurant
Possible Values: cheap, moderate, expensive
Utterance: Do you know of any Michelin star restaurants in the area that offer a unique dining experience?
World Knowledge Level: 3

Now answer with one number from 1 to 10.

Situation: {situation}
Slot: {slot_description}
Possible Values: {values}
Target Slot Value: {target}
Utterance: {utterance}
World Knowledge Level:"""

FACTS = """Think step by step. A user of a task-oriented dialogue system is in this situation: {situation}.
The system asks about this slot: {slot_description} (possible values: {values}).
List three interesting facts about everyday life that would make a person want the value "{target}" and not the other values, one per line, without writing the word(s) "{target}".

Facts:"""

GENERATE = """Generate a customer utterance containing an indirect and unique reason for wanting to choose a target slot value. Make sure that 1) the utterance entails ONLY the target slot value and that it DOES NOT mention the target slot value.

Situation: User wants to transfer money from one bank account to another user's account
Slot Description: The account type of the recipient whom the user is transfering money to
Possible Slot Values: checking, savings
Target Slot Value: checking
Do Not Mention Keywords In: checking
Indirect User Request: I need to transfer some money to my friend's account. He usually uses it for his direct deposits.

Situation: User wants to find a restaurant of a particular cuisine in a city
Slot Description: Price range for the restaurant
Possible Slot Values: inexpensive, moderate, expensive
Target Slot Value: moderate
Do Not Mention Keywords In: moderate
Indirect User Request: Looking to have a decent meal without burning a hole in my pocket

Now, generate ONE indirect user request for this input based on the above examples. Facts you may use:
{facts}

Situation: {situation}
Slot Description: {slot_description}
Possible Slot Values: {values}
Target Slot Value: {target}
Do Not Mention Keywords In: {target}
Indirect User Request:"""
