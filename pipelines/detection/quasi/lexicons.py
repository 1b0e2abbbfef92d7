"""Word lists of the quasi-identifier flags (issue 18), kept as data.

General lists, not drawn from any one transcript: occupations, kinship and social
relations, medical conditions, injuries and body parts, events, drugs and weapons,
vehicle makes. `quasi.py` turns them into patterns. Entries are separated by commas;
a multi-word entry keeps its spaces (the patterns accept any run of whitespace, line
breaks included, between its words).
"""


def _phrases(block: str) -> tuple[str, ...]:
    return tuple(" ".join(item.split()) for item in block.split(",") if item.strip())


# --- DEM ------------------------------------------------------------------------------------

# Occupations (singular). Roles in a hearing (witness, juror, attorney for the inmate,
# commissioner, prosecutor) are not here: the procedure is no quasi-identifier.
OCCUPATIONS = _phrases("""
    accountant, actor, actress, architect, artist, assembler, auditor, baker, barber, bartender,
    bookkeeper, bricklayer, builder, bus driver, busboy, butcher, cab driver, caretaker, carpenter,
    cashier, caseworker, chef, chemist, cleaner, clerk, coach, construction worker, cook,
    correctional officer, counselor, courier, custodian, dancer, delivery driver, dental assistant,
    dentist, designer, detective, dishwasher, dispatcher, doctor, driver, economist, editor,
    electrician, engineer, farmer, farmhand, firefighter, fisherman, florist, forklift operator,
    gardener, groundskeeper, hairdresser, handyman, housekeeper, investigator, janitor, jeweler,
    journalist, laborer, landscaper, lawyer, librarian, lifeguard, locksmith, logger, machinist,
    maid, mail carrier, manager, mechanic, medical examiner, midwife, miner, missionary, musician,
    nanny, nurse, nursing assistant, painter, paralegal, paramedic, pastor, pharmacist,
    photographer, physician, pilot, plumber, police officer, officer, postal worker, preacher,
    priest, professor, programmer, psychologist, rabbi, rancher, real estate agent, receptionist,
    reporter, roofer, sailor, salesman, saleswoman, scientist, secretary, security guard, server,
    sheriff, shopkeeper, social worker, soldier, surgeon, tailor, taxi driver, teacher, technician,
    therapist, trucker, truck driver, tutor, veterinarian, waiter, waitress, welder, writer, imam,
    minister, deputy, sergeant, trooper, marine, contractor, stocker, warehouse worker, line cook,
    fry cook, student
""")
# Religions and ethnic descriptions of a person (nationalities come from the model's
# NORP entities).
RELIGIONS = _phrases("""
    Catholic, Protestant, Baptist, Methodist, Lutheran, Pentecostal, Evangelical, Mormon, Jewish,
    Muslim, Buddhist, Hindu, Sikh, atheist, agnostic, Quaker, Amish
""")
ETHNIC_WORDS = _phrases("""
    black, white, Hispanic, Latino, Latina, Asian, Caucasian, African-American, African American,
    Native American, biracial, dark skin, light skin, dark-skinned, light-skinned
""")
# What an ethnic word must describe to be a person's attribute ("a black male"), not a
# colour ("a white car"). The skin phrases need nothing after them.
PERSON_NOUNS = _phrases("""
    man, men, woman, women, male, males, female, females, guy, guys, boy, boys, girl, girls, kid,
    kids, person, people, teenager, teenagers, juvenile, juveniles, gentleman, lady
""")
EDUCATION = _phrases("""
    GED, high school diploma, college degree, bachelor's degree, master's degree, associate's degree,
    dropped out of high school, dropped out of school
""")

# --- RELATION -------------------------------------------------------------------------------

KINSHIP = _phrases("""
    mother, mom, mama, father, dad, papa, parents, brother, brothers, sister, sisters, son, sons,
    daughter, daughters, wife, husband, ex-wife, ex-husband, aunt, uncle, cousin, cousins, niece,
    nephew, grandmother, grandma, grandfather, grandpa, grandparents, grandson, granddaughter,
    grandchildren, stepfather, stepmother, stepson, stepdaughter, stepbrother, stepsister,
    half-brother, half-sister, fiancé, fiancée, fiance, fiancee, children, child, kids, baby, twin,
    family
""")
SOCIAL = _phrases("""
    girlfriend, boyfriend, partner, friend, friends, best friend, cellmate, cellie, roommate,
    neighbor, neighbour, landlord, landlady, coworker, co-worker, classmate, godmother, godfather,
    co-defendant, codefendant, sponsor
""")
# What anchors a relation to a person: "my aunt", "his cellmate".
POSSESSIVES = _phrases("my, his, her, their, our, your")

# --- MISC -----------------------------------------------------------------------------------

# The kinds of incident a case is about.
EVENTS = _phrases("""
    shooting death, drive-by shooting, police officer shooting, shooting, stabbing, armed robbery,
    robbery, carjacking, burglary, kidnapping, homicide, murder, manslaughter, assault, rape, arson,
    overdose, car accident, car crash, hit-and-run, gang fight, riot, home invasion
""")
# Medical conditions, diagnoses and disabilities.
CONDITIONS = _phrases("""
    diabetes, diabetic, cancer, HIV, AIDS, hepatitis, tuberculosis, asthma, epilepsy, seizures,
    schizophrenia, schizophrenic, bipolar, depression, PTSD, ADHD, autism, autistic, dementia,
    Alzheimer's, paraplegic, quadriplegic, wheelchair, amputee, dialysis, pregnant, miscarriage,
    stroke, heart attack, addiction, alcoholic, alcoholism
""")
# Injuries: a type of injury says something on its own ("gunshot wound"); a bare
# injury noun ("the wounds") only with its body location ("wound on his hand").
INJURY_TYPES = _phrases("""
    gunshot wound, gunshot wounds, stab wound, stab wounds, road rash abrasion, road rash, laceration,
    lacerations, fracture, fractures, burn, burns, bullet wound, bullet wounds
""")
INJURY_NOUNS = _phrases("wound, wounds, injury, injuries, abrasion, abrasions, bruise, bruises, cut, cuts")
# Distinctive bodily marks, extended to a body location likewise.
MARKS = _phrases("scar, scars, tattoo, tattoos, birthmark, birthmarks, piercing, piercings")
BODY_PARTS = _phrases("""
    head, forehead, face, eye, eyes, ear, ears, nose, mouth, lip, lips, jaw, cheek, chin, neck,
    throat, shoulder, shoulders, arm, arms, bicep, biceps, elbow, forearm, wrist, hand, hands,
    finger, fingers, thumb, chest, nipple, clavicle, rib, ribs, back, stomach, abdomen, belly, side,
    hip, hips, groin, buttock, buttocks, leg, legs, thigh, knee, knees, shin, calf, ankle, foot,
    feet, toe, toes, skull, spine, torso, extremity
""")
# Time words that make a date or time entity a fact ("Saturday", "summer of 1998",
# "noon"); without one and without a number it is deictic ("next week", "the day").
TIME_ANCHORS = _phrases("""
    summer, winter, spring, fall, autumn, noon, midnight, weekend, weekends, christmas, thanksgiving,
    easter, holiday, holidays, birthday, decade, decades, century, semester
""")
# Words that let a bare count + body location read as an injury ("two in the chest"),
# when one of them comes shortly before.
INJURY_CONTEXT = _phrases("wound, wounds, injury, injuries, shot, shots, gunshot, entry, exit")
# Drugs and weapons found on or with a person.
ITEMS = _phrases("""
    marijuana, cocaine, crack cocaine, heroin, methamphetamine, meth, fentanyl, oxycodone, ecstasy,
    PCP, handgun, pistol, revolver, rifle, shotgun, machete
""")
VEHICLE_MAKES = _phrases("""
    Chevrolet, Chevy, Ford, Toyota, Honda, Nissan, Cadillac, Escalade, Buick, Dodge, Chrysler, Jeep,
    Mercedes, BMW, Audi, Volkswagen, Hyundai, Kia, Mazda, Subaru, Lexus, Acura, Pontiac,
    Oldsmobile, Impala, Camaro, Mustang, Corvette, Camry, Corolla, Civic, Accord, Altima, Tahoe
""")

# --- QUANTITY -------------------------------------------------------------------------------

# Units that make a number a measured quantity.
MEASURE_UNITS = _phrases("""
    yards, yard, feet, foot, miles, mile, meters, meter, kilometers, pounds, pound, lbs, kilos,
    kilograms, grams, gallons, dollars, bucks, cents, percent
""")
