"""Medical: HIPAA identifiers of the patient and relatives go; clinical content stays.

Gold decisions (prompts/categories.yaml): everyone named is NAME, clinicians included (with
the clinic they narrow down the patient); every full date tied to the patient (birth, visit,
admission, discharge, collection, signature, letter) is DATE; hospital names and bare years
are preserved.
"""

# ruff: noqa: E501  (templates are prose: one document line per source line reads best)

from __future__ import annotations

from redacto.corpus.markup import keep, pii
from redacto.corpus.templates import template
from redacto.corpus.values import Values
from redacto.document import Category

MEDICAL = Category.MEDICAL

DIAGNOSES = (
    "Type 2 diabetes mellitus",
    "essential hypertension",
    "community-acquired pneumonia",
    "acute bronchitis",
    "atrial fibrillation",
    "major depressive disorder",
    "chronic kidney disease stage 3",
    "migraine without aura",
    "osteoarthritis of the knee",
    "iron deficiency anemia",
    "hypothyroidism",
    "asthma, moderate persistent",
    "urinary tract infection",
    "gastroesophageal reflux disease",
    "congestive heart failure",
    "lumbar radiculopathy",
)
MEDICATIONS = (
    "metformin 500 mg twice daily",
    "lisinopril 10 mg daily",
    "amoxicillin 875 mg every 12 hours",
    "albuterol inhaler 2 puffs as needed",
    "apixaban 5 mg twice daily",
    "sertraline 50 mg daily",
    "atorvastatin 40 mg at bedtime",
    "sumatriptan 50 mg as needed",
    "levothyroxine 75 mcg daily",
    "ferrous sulfate 325 mg daily",
    "omeprazole 20 mg before breakfast",
    "furosemide 40 mg daily",
    "ibuprofen 400 mg every 6 hours",
    "nitrofurantoin 100 mg twice daily",
    "gabapentin 300 mg at night",
    "prednisone 20 mg for 5 days",
)
PROCEDURES = (
    "chest X-ray",
    "echocardiogram",
    "MRI of the lumbar spine",
    "colonoscopy",
    "CT of the abdomen",
    "knee arthroscopy",
    "ECG",
    "upper endoscopy",
)
BODY_LOCATIONS = (
    "left lower lobe",
    "right knee",
    "lower back",
    "left forearm",
    "right upper quadrant",
    "both ankles",
    "left temple",
    "lumbar spine",
)
COMPLAINTS = (
    "cough and fever for four days",
    "worsening shortness of breath",
    "headache with nausea",
    "pain and swelling",
    "fatigue and dizziness",
    "burning on urination",
    "chest tightness on exertion",
    "low mood and poor sleep",
)
HOSPITAL_KINDS = ("General Hospital", "Medical Center", "Community Clinic", "Family Health")
RELATIONS = ("daughter", "son", "wife", "husband", "sister", "mother")


def _hospital(v: Values) -> str:
    return f"{v.city()} {v.pick(HOSPITAL_KINDS)}"


def _clinician(v: Values) -> str:
    return f"Dr. {pii('NAME', v.person().full)}"


def _vitals(v: Values) -> str:
    pressure = f"BP {v.rng.randrange(104, 168)}/{v.rng.randrange(62, 98)}"
    pulse = f"HR {v.rng.randrange(54, 118)}"
    temp = f"Temp {v.rng.randrange(970, 1025) / 10:.1f} F"
    return f"{keep('vital', pressure)}, {keep('vital', pulse)}, {keep('vital', temp)}"


@template("medical.clinic_note", MEDICAL, "Clinic Visit Note", "single", "train")
def clinic_note(v: Values) -> str:
    patient, relative = v.person(), v.first_name()
    relation = v.rng.choice(RELATIONS)
    diagnosis, medication = v.pick(DIAGNOSES), v.pick(MEDICATIONS)
    return f"""
        {keep("institution", _hospital(v))}
        CLINIC VISIT NOTE

        Patient: {pii("NAME", patient.full)}    DOB: {pii("DATE", v.fmt(v.birth_date()))}
        MRN: {pii("MRN", v.mrn())}    Visit date: {pii("DATE", v.fmt(v.recent_date()))}
        Provider: {_clinician(v)}

        Chief complaint: {v.pick(COMPLAINTS)}.
        History: {pii("NAME", patient.first)} is seen today accompanied by the patient's {relation} {pii("NAME", relative)}, who can be reached at {pii("PHONE", v.phone())}. Symptoms began after a trip last week. Known history of {keep("diagnosis", v.pick(DIAGNOSES))}.
        Exam: {_vitals(v)}. Tenderness over the {keep("body_location", v.pick(BODY_LOCATIONS))}.

        Assessment: {keep("diagnosis", diagnosis)}.
        Plan: start {keep("medication", medication)}. Return in two weeks or sooner if worse.
    """


@template("medical.discharge_summary", MEDICAL, "Discharge Summary", "letterhead", "train")
def discharge_summary(v: Values) -> str:
    patient, contact = v.person(), v.person()
    admitted = v.recent_date(90)
    return f"""
        {keep("institution", _hospital(v))}
        Department of Internal Medicine

        DISCHARGE SUMMARY
        Patient: {pii("NAME", patient.full)}
        Medical record no. {pii("MRN", v.mrn())}
        Admitted: {pii("DATE", v.fmt(admitted))}    Discharged: {pii("DATE", v.fmt(v.recent_date(20)))}
        Attending: {_clinician(v)}

        Principal diagnosis: {keep("diagnosis", v.pick(DIAGNOSES))}. Secondary: {keep("diagnosis", v.pick(DIAGNOSES))}.
        Course: admitted through the emergency department; {keep("procedure", v.pick(PROCEDURES))} showed changes in the {keep("body_location", v.pick(BODY_LOCATIONS))}. Improved on treatment, afebrile for 48 hours.
        Discharge medications: {keep("medication", v.pick(MEDICATIONS))}; {keep("medication", v.pick(MEDICATIONS))}.
        Home address on file: {pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}.
        Emergency contact: {pii("NAME", contact.full)} ({v.rng.choice(RELATIONS)}), {pii("PHONE", v.phone())}.
        Follow up with primary care within 7 days.
    """


@template("medical.lab_report", MEDICAL, "Laboratory Report", "table", "train")
def lab_report(v: Values) -> str:
    patient = v.person()
    glucose = f"{v.rng.randrange(70, 240)} mg/dL"
    hba1c = f"{v.rng.randrange(50, 110) / 10:.1f} %"
    hemoglobin = f"{v.rng.randrange(95, 165) / 10:.1f} g/dL"
    creatinine = f"{v.rng.randrange(6, 24) / 10:.1f} mg/dL"
    return f"""
        {keep("institution", _hospital(v))} Laboratory
        LABORATORY REPORT

        Patient: {pii("NAME", patient.full)}    Sex: {v.rng.choice(("F", "M"))}
        DOB: {pii("DATE", v.fmt(v.birth_date()))}    Chart: {pii("MRN", v.mrn())}
        Collected: {pii("DATE", v.fmt(v.recent_date()))}    Ordered by: {_clinician(v)}

        Test\tResult\tReference
        Glucose, fasting\t{keep("lab", glucose)}\t70-99 mg/dL
        Hemoglobin A1c\t{keep("lab", hba1c)}\t4.0-5.6 %
        Hemoglobin\t{keep("lab", hemoglobin)}\t12.0-17.5 g/dL
        Creatinine\t{keep("lab", creatinine)}\t0.6-1.3 mg/dL

        Comment: results consistent with {keep("diagnosis", v.pick(DIAGNOSES))}. Questions: call the lab. Results were also sent to {pii("EMAIL", v.email(patient))} at the patient's request.
    """


@template("medical.intake_form", MEDICAL, "Patient Intake Form", "form", "test")
def intake_form(v: Values) -> str:
    patient, contact = v.person(), v.person()
    return f"""
        {keep("institution", _hospital(v))}
        NEW PATIENT INTAKE

        Full name:\t{pii("NAME", patient.full)}
        Date of birth:\t{pii("DATE", v.fmt(v.birth_date()))}
        Address:\t{pii("ADDRESS", v.street())}, {pii("ADDRESS", v.city_line())}
        Phone:\t{pii("PHONE", v.phone())}
        Email:\t{pii("EMAIL", v.email(patient))}
        Insurance member ID:\t{pii("ACCOUNT", v.member_id())}
        Emergency contact:\t{pii("NAME", contact.full)}, {pii("PHONE", v.phone())}
        Allergies:\t{keep("medication", v.pick(("penicillin", "sulfa drugs", "codeine", "latex", "aspirin", "iodine contrast")))}
        Current medications:\t{keep("medication", v.pick(MEDICATIONS))}
        Reason for visit:\t{v.pick(COMPLAINTS)}
        Past history:\t{keep("diagnosis", v.pick(DIAGNOSES))} (diagnosed {keep("year", str(v.today.year - v.rng.randrange(2, 15)))})

        I confirm the information above is correct.
        Signed: {pii("NAME", patient.full)}    Date: {pii("DATE", v.fmt(v.today))}
    """


@template("medical.referral_letter", MEDICAL, "Referral Letter", "letterhead", "test")
def referral_letter(v: Values) -> str:
    patient = v.person()
    clinician, specialist = _clinician(v), _clinician(v)
    relation = v.rng.choice(RELATIONS)
    return f"""
        {keep("institution", _hospital(v))}
        Outpatient Services

        {pii("DATE", v.fmt(v.today))}

        Dear {specialist},

        Re: {pii("NAME", patient.full)}, born {pii("DATE", v.fmt(v.birth_date()))}, MRN {pii("MRN", v.mrn())}

        Thank you for seeing this patient, whom I have followed for {keep("diagnosis", v.pick(DIAGNOSES))}. Over the past months there has been {v.pick(COMPLAINTS)}, and a {keep("procedure", v.pick(PROCEDURES))} suggested involvement of the {keep("body_location", v.pick(BODY_LOCATIONS))}. Current treatment is {keep("medication", v.pick(MEDICATIONS))}.
        {pii("NAME", patient.first)} lives with a {relation}, {pii("NAME", v.person().full)}, who helps with appointments; the best number is {pii("PHONE", v.phone())}.

        Yours sincerely,
        {clinician}
    """
