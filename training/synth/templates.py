"""Document kinds in French and English, written through `fill` so that spans are exact."""

from __future__ import annotations

from training.synth.context import Ctx
from training.synth.doc import Doc, fill

# Form fields: (caption, placeholder). Placeholders resolving to O are hard negatives.
FIELDS_FR = (
    ("Nom", "{LAST}"), ("Prénom", "{FIRST}"), ("Nom complet", "{FULL}"), ("Nom et prénom", "{FULL}"),
    ("Date de naissance", "{DOB}"), ("Né(e) le", "{DOB}"), ("Date de naiss.", "{DOB}"),
    ("Adresse", "{ADDRESS}"), ("Adresse postale", "{ADDRESS}"), ("Domicile", "{ADDRESS}"),
    ("Téléphone", "{PHONE}"), ("Tél.", "{PHONE}"), ("Portable", "{PHONE}"), ("Mobile", "{PHONE}"),
    ("E-mail", "{EMAIL}"), ("Courriel", "{EMAIL}"), ("Adresse e-mail", "{EMAIL}"), ("Mail", "{EMAIL}"),
    ("IBAN", "{IBAN}"), ("RIB / IBAN", "{IBAN}"), ("N° de sécurité sociale", "{NIR}"), ("N° SS", "{NIR}"),
    ("NIR", "{NIR}"), ("Numéro de passeport", "{PASSPORT}"), ("N° CNI", "{IDCARD}"),
    ("Carte d'identité n°", "{IDCARD}"), ("Permis de conduire", "{DL}"), ("N° client", "{CUSTID}"),
    ("Référence client", "{CUSTID}"), ("Identifiant", "{USERNAME}"), ("Login", "{LOGIN}"),
    ("Mot de passe", "{PASSWORD}"), ("Immatriculation", "{PLATE}"), ("N° de carte", "{CARD}"),
    ("Carte bancaire", "{CARD}"), ("Adresse IP", "{IP}"), ("Site web", "{URL}"), ("Profil", "{URL}"),
    ("N° de dossier", "{FILEID}"), ("Dossier n°", "{FILEID}"), ("N° adhérent", "{MEMBERID}"),
    ("Matricule", "{EMPID}"), ("N° de contrat", "{CONTRACT}"), ("N° de police", "{POLICY}"),
    ("IPP", "{PATID}"), ("N° patient", "{PATID}"), ("N° allocataire", "{BENEFIT}"), ("N° national (Belgique)", "{BENN}"),
    ("Pièce d'identité", "{NATID}"), ("Codice fiscale", "{CODFISC}"), ("DNI", "{DNI}"),
    ("Identifiant France Travail", "{MEMBERID}"), ("N° étudiant (INE)", "{STUDENT}"), ("N° de compte", "{ACCOUNT}"),
    ("Pseudo", "{USERNAME}"), ("Code wifi", "{PASSWORD}"), ("Jeton d'accès", "{APIKEY}"), ("Ticket", "{TICKET}"),
    ("Lieu de naissance", "{CITY}"), ("Nationalité", "{COUNTRY}"), ("Date", "{DATE}"),
    ("Facture", "{INVOICE}"), ("Société", "{COMPANY}"), ("Employeur", "{COMPANY}"), ("SIRET", "{SIRET}"),
    ("N° TVA", "{VAT}"), ("Commande", "{ORDER}"), ("BIC", "{BIC}"), ("Date de la demande", "{DATE}"),
)
FIELDS_EN = (
    ("Name", "{FULL}"), ("First name", "{FIRST}"), ("Last name", "{LAST}"), ("Surname", "{LAST}"),
    ("Full name", "{FULL}"), ("Patient", "{FULL}"), ("DOB", "{DOB}"), ("Date of birth", "{DOB}"),
    ("D.O.B.", "{DOB}"), ("Birth date", "{DOB}"), ("Address", "{ADDRESS}"), ("Home address", "{ADDRESS}"),
    ("Mailing address", "{ADDRESS}"), ("Phone", "{PHONE}"), ("Mobile", "{PHONE}"), ("Tel", "{PHONE}"),
    ("Cell", "{PHONE}"), ("Email", "{EMAIL}"), ("E-mail address", "{EMAIL}"), ("IBAN", "{IBAN}"),
    ("SSN", "{SSN}"), ("Social Security Number", "{SSN}"), ("NI number", "{NINO}"),
    ("National Insurance No.", "{NINO}"), ("Passport No.", "{PASSPORT}"), ("Driver's license", "{DL}"),
    ("Driving licence number", "{DL}"), ("ID card", "{IDCARD}"), ("Customer ID", "{CUSTID}"),
    ("Patient ID", "{PATID}"), ("MRN", "{PATID}"), ("Username", "{USERNAME}"), ("Login", "{LOGIN}"),
    ("Password", "{PASSWORD}"), ("License plate", "{PLATE}"), ("Card number", "{CARD}"),
    ("Credit card", "{CARD}"), ("IP address", "{IP}"), ("Website", "{URL}"), ("Profile", "{URL}"),
    ("Policy number", "{POLICY}"), ("Member ID", "{MEMBERID}"), ("Employee ID", "{EMPID}"),
    ("Account number", "{ACCOUNT}"), ("Case number", "{FILEID}"), ("Student ID", "{STUDENT}"),
    ("ID number", "{NATID}"), ("Spanish DNI", "{DNI}"), ("Tax code (codice fiscale)", "{CODFISC}"),
    ("Place of birth", "{CITY}"), ("Nationality", "{COUNTRY}"), ("Date", "{DATE}"),
    ("Invoice no.", "{INVOICE}"), ("Company", "{COMPANY}"), ("Employer", "{COMPANY}"),
    ("Order", "{ORDER}"), ("Ticket", "{TICKET}"), ("VAT", "{VAT}"), ("Submitted", "{DATE}"),
)
CORE_FR = ("{FULL}", "{DOB}", "{ADDRESS}", "{PHONE}", "{EMAIL}")
CORE_EN = CORE_FR


def _fields(ctx: Ctx, k: int) -> list[tuple[str, str]]:
    rng = ctx.rng
    table = FIELDS_FR if ctx.lang == "fr" else FIELDS_EN
    core = [f for f in table if f[1] in ("{FULL}", "{LAST}", "{ADDRESS}", "{DOB}")]
    picked = [rng.choice(core)] + rng.sample(table, k)
    if rng.random() < 0.4:
        picked.insert(rng.randint(1, len(picked)), next(f for f in core if f[1] == "{ADDRESS}"))
    seen: set[str] = set()
    out = []
    for cap, ph in picked:
        if ph in seen and ph not in ("{DATE}",):
            continue
        seen.add(ph)
        out.append((cap, ph))
    return out


def form(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    fr = ctx.lang == "fr"
    heads_fr = ("FORMULAIRE D'INSCRIPTION", "Fiche patient", "Demande d'adhésion", "Fiche de renseignements",
                "Dossier de candidature", "Bulletin d'inscription", "Déclaration de sinistre", "Fiche salarié",
                "Formulaire de contact", "Ouverture de compte")
    heads_en = ("REGISTRATION FORM", "Patient intake form", "Membership application", "Employee record",
                "Claim form", "Account opening", "Contact details", "New customer form", "Rental application")
    fill(d, rng.choice(heads_fr if fr else heads_en) + rng.choice(("\n", "\n\n", "\n" + "=" * 20 + "\n")), ctx.resolve)
    sep = rng.choice((" : ", ": ", ":\t", " = ", " - ", ":  ", "\t")) if fr else rng.choice((": ", ":\t", " - ", ": ", " = ", ":  "))
    style = rng.random()
    if style < 0.12:
        gap = rng.choice(("   ", "\t", " | ", "  -  ", ", "))
        items = [f"{cap}{sep}{ph}" for cap, ph in _fields(ctx, rng.randint(3, 8))]
        per_line = rng.randint(2, 3)
        for i in range(0, len(items), per_line):
            fill(d, gap.join(items[i:i + per_line]) + "\n", _flat_resolver(ctx))
        return
    for cap, ph in _fields(ctx, rng.randint(3, 9)):
        if rng.random() < 0.05:
            ph = rng.choice(("________", "N/A", "-", "(non renseigné)" if fr else "(not provided)", "[à compléter]" if fr else "[to fill]"))
        if style < 0.15:
            fill(d, f"**{cap}**{sep}{ph}\n", ctx.resolve)
        elif style < 0.25:
            fill(d, f"{cap.upper()}{sep}{ph}\n", ctx.resolve)
        elif style < 0.32:
            fill(d, f"- {cap}{sep}{ph}\n", ctx.resolve)
        else:
            fill(d, f"{cap}{sep}{ph}\n", ctx.resolve)
    if rng.random() < 0.4:
        tail = rng.choice((
            "Fait à {CITY}, le {DATE}\nSignature : {SIGN}", "Date : {DATE}", "Dossier traité par {PERSON:2}.",
            "Pour toute question : {SWITCHBOARD} (standard {COMPANY}).",
        ) if fr else (
            "Signed: {SIGN}\nDate: {DATE}", "Received on {DATE} by {PERSON:2}.", "Questions? Call our helpline at {SWITCHBOARD}.",
            "Reference {TICKET} - processed {DATE}",
        ))
        fill(d, tail, ctx.resolve)


def _flat_resolver(ctx: Ctx):
    def resolve(key: str, n: int):
        value = ctx.resolve(key, n)
        if isinstance(value, list):
            return value
        text, label = value
        return text.replace("\n", ", "), label
    return resolve


def json_record(d: Doc, ctx: Ctx) -> None:
    """An API payload or database row pasted as JSON."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    keys = [("name" if rng.random() < 0.5 else "full_name", "{FULL}")]
    pool = (("first_name", "{FIRST}"), ("last_name", "{LAST}"), ("email", "{EMAIL}"), ("phone", "{PHONE}"),
            ("address", "{ADDRESS}"), ("birth_date", "{DOB}"), ("dob", "{DOB}"), ("iban", "{IBAN}"),
            ("customer_id", "{CUSTID}"), ("username", "{USERNAME}"), ("ip", "{IP}"), ("ssn", "{SSN}"),
            ("nir", "{NIR}"), ("password", "{PASSWORD}"), ("api_key", "{APIKEY}"), ("profile_url", "{URL}"),
            ("card_number", "{CARD}"), ("plate", "{PLATE}"), ("order_id", "{ORDER}"), ("created_at", "{DATE}"),
            ("company", "{COMPANY}"), ("version", "{VERSION}"), ("city", "{CITY}"), ("country", "{COUNTRY}"),
            ("invoice", "{INVOICE}"), ("sha256", "{HASH}"))
    keys += rng.sample(pool, rng.randint(3, 8))
    if fr and rng.random() < 0.5:
        keys = [(_FR_JSON_KEYS.get(k, k), v) for k, v in keys]
    indent = rng.choice(("", "  ", "    "))
    nl = "\n" if indent else " "
    quoted = '"'
    body = ("," + nl).join(f"{indent}{quoted}{k}{quoted}: {quoted}{v}{quoted}" for k, v in keys)
    fill(d, "{" + nl + body + nl + "}", _json_resolver(ctx))


_FR_JSON_KEYS = {"name": "nom", "full_name": "nom_complet", "first_name": "prenom", "last_name": "nom_famille",
                 "address": "adresse", "phone": "telephone", "birth_date": "date_naissance", "city": "ville",
                 "country": "pays", "company": "societe", "plate": "immatriculation", "password": "mot_de_passe"}


def _json_resolver(ctx: Ctx):
    def resolve(key: str, n: int):
        value = ctx.resolve(key, n)
        if isinstance(value, list):
            return value
        text, label = value
        return text.replace("\n", ", ").replace('"', "'"), label
    return resolve


def email(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    fr = ctx.lang == "fr"
    if rng.random() < 0.5:
        fill(d, ("De : {SIGN} <{EMAIL}>\nÀ : {EMAIL:2}\nObjet : " if fr else "From: {SIGN} <{EMAIL}>\nTo: {EMAIL:2}\nSubject: ")
             + rng.choice(SUBJECTS_FR if fr else SUBJECTS_EN) + "\n\n", ctx.resolve)
    greet = rng.choice(("Bonjour {TITLE} {LAST},", "Bonjour {FIRST:2},", "Cher {FIRST:2},", "Madame, Monsieur,",
                        "Bonjour,", "Salut {FIRST:2} !", "Bonsoir {TITLE:2} {LAST:2},")
                       if fr else ("Dear {TITLE:2} {LAST:2},", "Hi {FIRST:2},", "Hello {PERSON:2},", "Dear Sir or Madam,",
                                   "Hi all,", "Good morning {FIRST:2},"))
    fill(d, greet + "\n\n", ctx.resolve)
    for body in rng.sample(BODIES_FR if fr else BODIES_EN, rng.randint(1, 3)):
        fill(d, body + rng.choice(("\n\n", "\n", " ")), ctx.resolve)
    if rng.random() < 0.3:
        fill(d, prose_sentence(ctx) + "\n\n", ctx.resolve)
    fill(d, rng.choice(("Cordialement,", "Bien à vous,", "Bonne journée,", "Merci d'avance,", "Bien cordialement,", "À bientôt,")
                       if fr else ("Best regards,", "Kind regards,", "Thanks,", "Cheers,", "Sincerely,", "Best,")) + "\n", ctx.resolve)
    sig = rng.choice((
        "{SIGN}", "{SIGN}\n{PHONE}", "{SIGN}\n{COMPANY}\n{PHONE}", "--\n{SIGN}\nTél : {PHONE}\n{EMAIL}",
        "{SIGN}\n{ADDRESS}\n{PHONE}", "{SIGN} | {COMPANY}\nMobile : {PHONE} | Standard : {SWITCHBOARD}\n{COMPANY_ADDR}",
        "{SIGN}\nLinkedIn : {URL}", "{SIGN}\n{TITLEJOB}\n{COMPANY} - {COMPANY_ADDR}", "{SIGN}\n{COMPANY} - www.{COMPANYDOMAIN}",
    ) if fr else (
        "{SIGN}", "{SIGN}\n{PHONE}", "{SIGN}\n{COMPANY}\nMobile: {PHONE}", "--\n{SIGN}\nT: {PHONE}\nE: {EMAIL}",
        "{SIGN}\n{ADDRESS}\n{PHONE}", "{SIGN} | {COMPANY}\nCell: {PHONE} | Main office: {SWITCHBOARD}\n{COMPANY_ADDR}",
        "{SIGN}\n{URL}", "{SIGN}\n{TITLEJOB}, {COMPANY}", "{SIGN}\n{TITLEJOB}\n{COMPANY} | www.{COMPANYDOMAIN}",
    ))
    fill(d, sig.replace("{TITLEJOB}", rng.choice(JOBS_FR if fr else JOBS_EN)), ctx.resolve)
    if rng.random() < 0.3:
        fill(d, rng.choice(DISCLAIMERS_FR if fr else DISCLAIMERS_EN), ctx.resolve)


def thread(d: Doc, ctx: Ctx) -> None:
    """A reply above a quoted earlier e-mail."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    fill(d, rng.choice(REPLIES_FR if fr else REPLIES_EN) + "\n\n", ctx.resolve)
    fill(d, rng.choice(("{SIGN:2}", "{FIRST:2}", "{SIGN:2}\n{PHONE:2}")) + "\n\n", ctx.resolve)
    header = rng.choice((
        "Le {DATE} à {TIME}, {FULL} <{EMAIL}> a écrit :\n", "-----Message d'origine-----\nDe : {FULL} <{EMAIL}>\nEnvoyé : {DATE}\n",
    ) if fr else (
        "On {DATE} at {TIME}, {FULL} <{EMAIL}> wrote:\n", "-----Original Message-----\nFrom: {FULL} [mailto:{EMAIL}]\nSent: {DATE}\n",
    ))
    fill(d, header, ctx.resolve)
    inner = Doc(rng, d.typo_rate, d.spacing_rate)
    email(inner, ctx)
    d.embed(inner, rng.choice(("> ", "> ", ">", "")))


def pdf(d: Doc, ctx: Ctx) -> None:
    """A letter or form as text extracted from a PDF: page furniture around it (lines broken later by noise)."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    if rng.random() < 0.5:
        fill(d, rng.choice(("CONFIDENTIEL\n", "Réf. {FILEID}\n", "{COMPANY}\n") if fr else ("CONFIDENTIAL\n", "Ref. {FILEID}\n", "{COMPANY}\n")), ctx.resolve)
    rng.choice((letter, letter, form))(d, ctx)
    if rng.random() < 0.6:
        total = rng.randint(1, 4)
        fill(d, rng.choice((f"\n\nPage 1 sur {total}", f"\n\n1/{total}", "\n\n- 1 -") if fr else (f"\n\nPage 1 of {total}", f"\n\n1/{total}", "\n\n- 1 -")), ctx.resolve)


def vcard(d: Doc, ctx: Ctx) -> None:
    """Address-book exports: vCards or a plain contact list."""
    rng = ctx.rng
    if rng.random() < 0.5:
        for i in range(1, rng.randint(2, 4)):
            fill(d, "BEGIN:VCARD\nVERSION:3.0\n", ctx.resolve)
            fill(d, f"N:{{LAST:{i}}};{{FIRST:{i}}};;;\nFN:{{PLAIN:{i}}}\n", ctx.resolve)
            for line in rng.sample(VCARD_LINES, rng.randint(2, 5)):
                fill(d, line.replace("}", f":{i}}}") + "\n", _flat_resolver(ctx))
            fill(d, "END:VCARD\n", ctx.resolve)
        return
    fr = ctx.lang == "fr"
    fill(d, ("Contacts :\n" if fr else "Contacts:\n") if rng.random() < 0.5 else "", ctx.resolve)
    for i in range(1, rng.randint(3, 6)):
        fill(d, rng.choice(("{FULL} - {PHONE}", "{FULL}, {EMAIL}", "{FULL} ({PHONE})", "{SIGN}\t{PHONE}\t{EMAIL}",
                            "{FULL}\n{ADDRESS}", "{FULL} : {PHONE}")).replace("}", f":{i}}}") + "\n", ctx.resolve)


def invoice(d: Doc, ctx: Ctx) -> None:
    """An invoice: the issuing company's details are not personal, the billed person's are."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    fill(d, "{COMPANY}\n{COMPANY_BLOCK}\n" + ("SIRET {SIRET} - TVA {VAT}\nTél. {SWITCHBOARD}\n\n" if fr else "VAT {VAT}\nTel {SWITCHBOARD}\n\n"), ctx.resolve)
    fill(d, ("FACTURE {INVOICE}\nDate : {DATE}\n" if fr else "INVOICE {INVOICE}\nDate: {DATE}\n"), ctx.resolve)
    fill(d, rng.choice(("Facturé à :\n{TITLE} {FULL}\n{ADDRESS}\n", "Client : {FULL} (n° {CUSTID})\nAdresse de facturation : {ADDRESS}\n",
                        "Destinataire\n{FULL}\n{ADDRESS}\n{EMAIL}\n") if fr else (
                       "Bill to:\n{TITLE} {FULL}\n{ADDRESS}\n", "Customer: {FULL} (no. {CUSTID})\nBilling address: {ADDRESS}\n",
                       "Recipient\n{FULL}\n{ADDRESS}\n{EMAIL}\n")), ctx.resolve)
    if rng.random() < 0.5:
        fill(d, "Commande {ORDER}\n" if fr else "Order {ORDER}\n", ctx.resolve)
    for _ in range(rng.randint(1, 4)):
        fill(d, f"{rng.choice(PRODUCTS)}  x{rng.randint(1, 5)}  {{AMOUNT}}\n", ctx.resolve)
    fill(d, rng.choice(("Total TTC : {AMOUNT}\n", "Montant dû : {AMOUNT}\n") if fr else ("Total: {AMOUNT}\n", "Amount due: {AMOUNT}\n")), ctx.resolve)
    if rng.random() < 0.5:
        fill(d, rng.choice(("Prélèvement sur le compte {IBAN} le {DATE}.", "Payé par carte se terminant par {LAST4}.",
                            "Règlement par virement : IBAN {IBAN} - BIC {BIC}") if fr else (
                           "Direct debit from account {IBAN} on {DATE}.", "Paid by card ending {LAST4}.",
                           "Pay by transfer: IBAN {IBAN} - BIC {BIC}")), ctx.resolve)


def shipping(d: Doc, ctx: Ctx) -> None:
    """A shipping label or delivery notice: sender company (not personal) and recipient (personal)."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    fill(d, ("EXPÉDITEUR\n{COMPANY}\n{COMPANY_BLOCK}\n\nDESTINATAIRE\n" if fr else "FROM\n{COMPANY}\n{COMPANY_BLOCK}\n\nTO\n"), ctx.resolve)
    fill(d, rng.choice(("{FULL}\n{ADDRESS}\n", "{TITLE} {FULL}\n{ADDRESS}\n{PHONE}\n", "{SIGN}\n{ADDRESS}\n")), ctx.resolve)
    fill(d, ("\nColis n° {TRACKING} - {NUM} kg\nCommande {ORDER} du {DATE}\n" if fr else "\nParcel {TRACKING} - {NUM} lb\nOrder {ORDER} of {DATE}\n"), ctx.resolve)
    if rng.random() < 0.4:
        fill(d, ("Instructions : laisser chez {FIRST:2} au {STREET:2} si absent.\n" if fr else "Instructions: leave with {FIRST:2} at {STREET:2} if out.\n"), ctx.resolve)


def letter(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    fr = ctx.lang == "fr"
    if rng.random() < 0.7:
        fill(d, "{COMPANY}\n{COMPANY_BLOCK}\n" + ("Standard : {SWITCHBOARD}\n" if fr else "Tel: {SWITCHBOARD}\n"), ctx.resolve)
        if rng.random() < 0.3:
            fill(d, "SIRET {SIRET} - TVA {VAT}\n" if fr else "Company no. {SIREN} - VAT {VAT}\n", ctx.resolve)
        fill(d, "\n", ctx.resolve)
    fill(d, rng.choice(("{TITLE} {FULL}\n{ADDRESS}\n\n", "{FULL}\n{ADDRESS}\n\n", "{TITLE} {FULL}\n{ADDRESS}\n{PHONE}\n\n")), ctx.resolve)
    fill(d, rng.choice(("{CITY}, le {DATE}\n\n", "Le {DATE}\n\n", "Fait à {CITY}, le {DATE}\n\n") if fr else ("{DATE}\n\n", "{CITY}, {DATE}\n\n")), ctx.resolve)
    kind = rng.choice(("medical", "legal", "bank", "hr", "admin"))
    fill(d, rng.choice(LETTER_REFS_FR[kind] if fr else LETTER_REFS_EN[kind]) + "\n\n", ctx.resolve)
    fill(d, rng.choice(("{TITLE} {LAST},\n\n", "Madame, Monsieur,\n\n", "{TITLE},\n\n") if fr else ("Dear {TITLE} {LAST},\n\n", "Dear Sir or Madam,\n\n", "Dear {FIRST},\n\n")), ctx.resolve)
    for body in rng.sample(LETTER_BODIES_FR[kind] if fr else LETTER_BODIES_EN[kind], rng.randint(1, 3)):
        fill(d, body + "\n\n", ctx.resolve)
    fill(d, rng.choice(("Veuillez agréer, {TITLE} {LAST}, l'expression de nos salutations distinguées.\n\n",
                        "Je vous prie d'agréer mes sincères salutations.\n\n", "Cordialement,\n\n")
                       if fr else ("Yours sincerely,\n\n", "Yours faithfully,\n\n", "Kind regards,\n\n")), ctx.resolve)
    fill(d, rng.choice(("{SIGN:2}\n{TITLEJOB}", "{TITLE:2} {SIGN:2}", "{SIGN:2}", "Le service client")
                       if fr else ("{SIGN:2}\n{TITLEJOB}", "{TITLE:2} {SIGN:2}", "{SIGN:2}", "Customer Services")).replace(
        "{TITLEJOB}", rng.choice(JOBS_FR if fr else JOBS_EN)), ctx.resolve)


def chat(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    fr = ctx.lang == "fr"
    agent = rng.choice(("Agent", "Support", "Conseiller", "Bot", "{FIRST:2} (support)")) if fr else rng.choice(("Agent", "Support", "Bot", "{FIRST:2} (support)"))
    user = rng.choice(("Client", "Vous", "{FIRST}", "{SIGN}", "user")) if fr else rng.choice(("Customer", "You", "{FIRST}", "{SIGN}", "user"))
    stamp = rng.random() < 0.5
    exchanges = CHAT_FR if fr else CHAT_EN
    picked = sorted(rng.sample(range(len(exchanges)), rng.randint(2, 6)))
    turns = [turn for i in picked for turn in exchanges[i]]
    minute = rng.randint(8 * 60, 20 * 60)
    for who, text in turns:
        name = agent if who == "A" else user
        minute += rng.randint(0, 3)
        prefix = f"[{minute // 60:02d}:{minute % 60:02d}] " if stamp else ""
        fill(d, f"{prefix}{name}: {text}\n", ctx.resolve)


def prompt(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    fr = ctx.lang == "fr"
    if rng.random() < 0.4:
        fill(d, rng.choice(PROMPTS_INLINE_FR if fr else PROMPTS_INLINE_EN), ctx.resolve)
        return
    fill(d, rng.choice(PROMPTS_FR if fr else PROMPTS_EN), ctx.resolve)
    fill(d, "\n\n", ctx.resolve)
    inner = rng.choice((email, letter, form, csv_table, chat, sentences, json_record, notes))
    inner(d, ctx)


def csv_table(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    fr = ctx.lang == "fr"
    table = FIELDS_FR if fr else FIELDS_EN
    cols = [("nom" if fr else "name", "{FULL}")] + rng.sample(
        [f for f in table if f[1] not in ("{FULL}", "{ADDRESS}")], rng.randint(2, 5))
    if rng.random() < 0.3:
        cols.append(("adresse" if fr else "address", "{ADDRESS}"))
    sep = rng.choice((",", ";", "\t", "|"))
    d.t(sep.join(c[0].lower().replace(" ", "_") for c in cols) + "\n")
    for row in range(1, rng.randint(2, 6)):
        cells = []
        for _, ph in cols:
            cells.append(ph.replace("}", f":{row}}}"))
        line = sep.join(('"' + c + '"') if ph == "{ADDRESS}" else c for c, (_, ph) in zip(cells, cols))
        fill(d, line + "\n", _csv_resolver(ctx, sep))


def _csv_resolver(ctx: Ctx, sep: str):
    def resolve(key: str, n: int):
        value = ctx.resolve(key, n)
        if isinstance(value, list):
            return value
        text, label = value
        if key == "ADDRESS":
            text = text.replace("\n", ", ").replace('"', "")
        return text.replace(sep, " ") if sep in text and key != "ADDRESS" else text, label
    return resolve


def markdown_table(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    fr = ctx.lang == "fr"
    table = FIELDS_FR if fr else FIELDS_EN
    if rng.random() < 0.5:
        cols = [("Nom" if fr else "Name", "{FULL}")] + rng.sample([f for f in table if f[1] != "{FULL}"], rng.randint(2, 4))
        d.t("| " + " | ".join(c[0] for c in cols) + " |\n|" + "---|" * len(cols) + "\n")
        for row in range(1, rng.randint(2, 5)):
            fill(d, "| " + " | ".join(ph.replace("}", f":{row}}}") for _, ph in cols) + " |\n", _md_resolver(ctx))
    else:
        d.t("| " + ("Champ | Valeur" if fr else "Field | Value") + " |\n|---|---|\n")
        for cap, ph in _fields(ctx, rng.randint(3, 7)):
            fill(d, f"| {cap} | {ph} |\n", _md_resolver(ctx))


def _md_resolver(ctx: Ctx):
    def resolve(key: str, n: int):
        value = ctx.resolve(key, n)
        if isinstance(value, list):
            return value
        text, label = value
        return text.replace("\n", " <br> " if ctx.rng.random() < 0.2 else ", ").replace("|", "/"), label
    return resolve


def config(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    for line in rng.sample(CONFIG_LINES, rng.randint(3, 7)):
        fill(d, line + "\n", ctx.resolve)


def logs(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    for _ in range(rng.randint(3, 8)):
        ts = f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}Z"
        fill(d, f"{ts} " + rng.choice(LOG_LINES) + "\n", ctx.resolve)


def sentences(d: Doc, ctx: Ctx) -> None:
    rng = ctx.rng
    pool = SENTENCES_FR if ctx.lang == "fr" else SENTENCES_EN
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        fill(d, rng.choice(pool) if rng.random() < 0.8 else prose_sentence(ctx), ctx.resolve)
        d.t(rng.choice((" ", "\n", " ")))


def narrative(d: Doc, ctx: Ctx) -> None:
    """Running prose with names in dialogue and reported speech, plus people-named places as negatives."""
    rng = ctx.rng
    pool = NARRATIVE_FR if ctx.lang == "fr" else NARRATIVE_EN
    for _ in range(rng.randint(2, 5)):
        sentence = rng.choice(pool) if rng.random() < 0.5 else prose_sentence(ctx)
        fill(d, sentence, ctx.resolve)
        d.t(rng.choice((" ", " ", "\n", "\n\n")))


def prose_sentence(ctx: Ctx) -> str:
    """A sentence assembled from a subject, a predicate and a complement, most of them naming people."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    n = rng.randint(1, 4)
    subject = rng.choice(PROSE_SUBJECTS_FR if fr else PROSE_SUBJECTS_EN).replace("#", str(n))
    pred = rng.choice(PROSE_PREDICATES_FR if fr else PROSE_PREDICATES_EN)
    comp = rng.choice(PROSE_COMPLEMENTS_FR if fr else PROSE_COMPLEMENTS_EN).replace("#", str(n % 4 + 1))
    sentence = f"{subject} {pred}{comp}"
    if rng.random() < 0.2:
        sentence = rng.choice(PROSE_OPENERS_FR if fr else PROSE_OPENERS_EN) + sentence[0].lower() + sentence[1:] if sentence[0] != "{" else rng.choice(PROSE_OPENERS_FR if fr else PROSE_OPENERS_EN) + sentence
    return sentence + rng.choice((".", ".", ".", " !", "...", " ?" if fr else "?"))


def notes(d: Doc, ctx: Ctx) -> None:
    """Meeting, CRM or care notes: lists of people and short factual lines."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    head = rng.choice(NOTES_HEAD_FR if fr else NOTES_HEAD_EN)
    fill(d, head + "\n", ctx.resolve)
    people = [f"{{PERSON:{i}}}" for i in range(1, rng.randint(2, 6))]
    joiner = rng.choice((", ", ", ", " ; ", "\n- "))
    fill(d, ("Participants : " if fr else "Attendees: ") + ("\n- " if joiner == "\n- " else "") + joiner.join(people) + "\n", ctx.resolve)
    for line in rng.sample(NOTES_FR if fr else NOTES_EN, rng.randint(2, 5)):
        fill(d, rng.choice(("- ", "* ", "", "• ")) + line + "\n", ctx.resolve)


def messages(d: Doc, ctx: Ctx) -> None:
    """SMS / instant-messaging thread, informal and lowercase-heavy."""
    rng = ctx.rng
    fr = ctx.lang == "fr"
    pool = SMS_FR if fr else SMS_EN
    low = rng.random() < 0.5
    resolve = _lowering_resolver(ctx) if low and rng.random() < 0.6 else ctx.resolve
    for text in rng.sample(pool, rng.randint(2, 6)):
        who = rng.choice(("{FIRST}", "{FIRST:2}", "Moi" if fr else "Me"))
        stamp = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} " if rng.random() < 0.5 else ""
        fill(d, f"{stamp}{who}: " + (_lower_template(text) if low else text) + "\n", resolve)


def _lowering_resolver(ctx: Ctx):
    def resolve(key: str, n: int):
        value = ctx.resolve(key, n)
        if isinstance(value, list):
            return value
        text, label = value
        if label in ("PERSON", "ADDRESS", "EMAIL"):
            text = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
        return text, label
    return resolve


def clean(d: Doc, ctx: Ctx) -> None:
    """A document with no personal data at all: public, technical or corporate text."""
    rng = ctx.rng
    pool = CLEAN_FR if ctx.lang == "fr" else CLEAN_EN
    for sentence in rng.sample(pool, rng.randint(2, 5)):
        fill(d, sentence + rng.choice((" ", "\n", "\n\n")), ctx.resolve)


def _lower_template(text: str) -> str:
    out = []
    depth = 0
    for c in text:
        depth += c == "{"
        out.append(c if depth else c.lower())
        depth -= c == "}"
    return "".join(out)


REPLIES_FR = ("Bonjour,\n\nBien reçu, je m'en occupe.", "Merci {FIRST}, c'est noté.", "Je transfère à {FULL:3} qui suit le dossier.",
              "Voir ci-dessous. Pouvez-vous rappeler {TITLE} {LAST} au {PHONE} ?", "Ok pour moi.")
REPLIES_EN = ("Hi,\n\nGot it, I'll handle it.", "Thanks {FIRST}, noted.", "Forwarding to {FULL:3} who owns the case.",
              "See below. Could you call {TITLE} {LAST} on {PHONE}?", "Fine by me.")

VCARD_LINES = ("TEL;TYPE=cell:{PHONE}", "TEL;TYPE=home:{PHONE}", "EMAIL;TYPE=home:{EMAIL}", "ADR;TYPE=home:;;{ADDRESS}",
               "BDAY:{DOB}", "URL:{URL}", "ORG:{COMPANY}", "NOTE:client {CUSTID}")
PRODUCTS = ("Abonnement mensuel", "Consultation", "Câble HDMI 2 m", "Support technique", "Licence logicielle", "Livraison",
            "Monthly subscription", "Consulting hours", "USB-C charger", "Annual maintenance", "Train ticket Paris-Lyon")

SUBJECTS_FR = ("Votre dossier", "Demande de remboursement", "RE: rendez-vous", "Changement d'adresse",
               "Mise à jour de mes coordonnées", "Facture {INVOICE}", "Candidature", "Accès au compte", "Urgent")
SUBJECTS_EN = ("Your application", "Refund request", "RE: meeting", "Change of address", "Updated contact details",
               "Invoice {INVOICE}", "Account access", "Quick question", "Fwd: documents")
JOBS_FR = ("Chargée de clientèle", "Directeur commercial", "Responsable RH", "Médecin généraliste", "Avocate au barreau de Lyon",
           "Conseiller bancaire", "Assistante de direction", "Ingénieur logiciel")
JOBS_EN = ("Account Manager", "HR Business Partner", "Senior Software Engineer", "Customer Success", "Attorney at Law",
           "Relationship Manager", "Office Manager", "General Practitioner")
DISCLAIMERS_FR = ("\n\nCe message et ses pièces jointes sont confidentiels. {COMPANY}, {COMPANY_ADDR}.",
                  "\n\nPensez à l'environnement avant d'imprimer ce courriel.")
DISCLAIMERS_EN = ("\n\nThis e-mail and any attachments are confidential. {COMPANY}, {COMPANY_ADDR}.",
                  "\n\nPlease consider the environment before printing this email.")

BODIES_FR = (
    "Suite à notre échange, voici mes nouvelles coordonnées : {ADDRESS}.",
    "Je vous informe que j'ai déménagé. Ma nouvelle adresse est :\n{ADDRESS}",
    "Vous pouvez me joindre au {PHONE} ou par mail à {EMAIL}.",
    "Merci de verser le remboursement sur mon compte IBAN {IBAN}.",
    "Je vous transmets mon RIB : {IBAN} (BIC {BIC}).",
    "Mon numéro de sécurité sociale est le {NIR}.",
    "Pour rappel, je suis né le {DOB} à {CITY}.",
    "Mon enfant, {FIRST:3}, est né(e) le {DOB:3}.",
    "Mon numéro client est {CUSTID} et ma commande porte le numéro {ORDER}.",
    "Concernant la facture {INVOICE} du {DATE}, le montant de {AMOUNT} a été réglé.",
    "Je serai en rendez-vous le {DATE} à {TIME} avec {TITLE:2} {LAST:2}.",
    "Mes identifiants : login {LOGIN}, mot de passe {PASSWORD}.",
    "J'ai oublié mon mot de passe, l'ancien était {PASSWORD}.",
    "Le colis {TRACKING} n'est jamais arrivé.",
    "Vous trouverez mon CV ici : {URL}",
    "{FULL} ({EMAIL}) rejoindra l'équipe lundi.",
    "Pouvez-vous contacter {TITLE:3} {FULL:3} au {PHONE:3} ?",
    "J'ai payé avec ma carte {CARD}, mais le paiement a été refusé.",
    "Ma carte se terminant par {LAST4} a été débitée deux fois.",
    "Ci-joint la copie de mon passeport n° {PASSPORT}.",
    "Mon véhicule immatriculé {PLATE} est resté au garage.",
    "Le ticket {TICKET} est toujours ouvert.",
    "Je ne connais pas {FIRST:2}, mais {PERSON:3} m'a donné votre contact.",
    "Mon dossier n° {FILEID} est en attente depuis le {DATE}.",
    "Le rendez-vous avec le Dr {LAST:3} est confirmé pour le {DATE}.",
)
BODIES_EN = (
    "As discussed, here are my new details: {ADDRESS}.",
    "Please note I have moved. My new address is:\n{ADDRESS}",
    "You can reach me on {PHONE} or at {EMAIL}.",
    "Please send the refund to my account, IBAN {IBAN}.",
    "My bank details: IBAN {IBAN}, BIC {BIC}.",
    "My social security number is {SSN}.",
    "My National Insurance number is {NINO}.",
    "For your records, my date of birth is {DOB}.",
    "My child {FIRST:3} was born on {DOB:3}.",
    "My customer ID is {CUSTID} and the order number is {ORDER}.",
    "Regarding invoice {INVOICE} dated {DATE}, the amount of {AMOUNT} has been paid.",
    "I have a meeting on {DATE} at {TIME} with {TITLE:2} {LAST:2}.",
    "My login is {LOGIN} and the password is {PASSWORD}.",
    "I forgot my password, the old one was {PASSWORD}.",
    "Parcel {TRACKING} never arrived.",
    "My resume is here: {URL}",
    "{FULL} ({EMAIL}) will join the team on Monday.",
    "Could you call {TITLE:3} {FULL:3} at {PHONE:3}?",
    "I paid with my card {CARD} but it was declined.",
    "My card ending in {LAST4} was charged twice.",
    "Attached is a copy of my passport, number {PASSPORT}.",
    "My car, plate {PLATE}, is still at the garage.",
    "Ticket {TICKET} is still open.",
    "I don't know {FIRST:2}, but {PERSON:3} gave me your contact.",
    "My case number {FILEID} has been pending since {DATE}.",
    "The appointment with Dr {LAST:3} is confirmed for {DATE}.",
    "My driver's license number is {DL}.",
)

LETTER_REFS_FR = {
    "medical": ("Objet : compte rendu de consultation\nPatient : {FULL}, né(e) le {DOB}\nIPP : {PATID}",
                "Réf. : {PATID}\nObjet : résultats d'analyses"),
    "legal": ("Affaire : {FULL} c/ {COMPANY}\nN° RG : {FILEID}", "Objet : mise en demeure\nDossier n° {FILEID}"),
    "bank": ("Objet : ouverture de compte\nN° client : {CUSTID}", "Objet : incident de paiement\nIBAN : {IBAN}"),
    "hr": ("Objet : contrat de travail\nMatricule : {EMPID}", "Objet : attestation employeur"),
    "admin": ("Objet : votre demande de passeport\nN° de dossier : {FILEID}", "N° allocataire : {BENEFIT}\nObjet : révision de vos droits"),
}
LETTER_REFS_EN = {
    "medical": ("Re: clinic letter\nPatient: {FULL}, DOB {DOB}\nMRN: {PATID}", "Ref: {PATID}\nRe: test results"),
    "legal": ("Re: {FULL} v. {COMPANY}\nCase no. {FILEID}", "Re: notice before action\nOur ref: {FILEID}"),
    "bank": ("Re: account opening\nCustomer no.: {CUSTID}", "Re: returned payment\nIBAN: {IBAN}"),
    "hr": ("Re: employment contract\nEmployee ID: {EMPID}", "Re: reference letter"),
    "admin": ("Re: your passport application\nCase number: {FILEID}", "Re: benefit review\nNI number: {NINO}"),
}
LETTER_BODIES_FR = {
    "medical": ("J'ai vu en consultation le {DATE} {TITLE} {FULL}, né(e) le {DOB}, demeurant {ADDRESS}.",
                "Le patient signale des douleurs depuis trois semaines. Je l'adresse au Dr {LAST:3} pour avis.",
                "Numéro de sécurité sociale : {NIR}. Mutuelle : {COMPANY}, adhérent n° {MEMBERID}.",
                "Prochain contrôle le {DATE}. Joignable au {PHONE}."),
    "legal": ("Nous intervenons pour le compte de {TITLE} {FULL}, demeurant {ADDRESS}.",
              "Notre client, né le {DOB}, conteste la facture {INVOICE} émise par {COMPANY}.",
              "À défaut de règlement sous huit jours, nous saisirons le tribunal de {CITY}.",
              "Vous pouvez joindre {TITLE:2} {LAST:2} au {PHONE:2}."),
    "bank": ("Nous avons le plaisir de vous confirmer l'ouverture de votre compte, IBAN {IBAN}.",
             "Votre carte n° {CARD} vous sera adressée à l'adresse suivante : {ADDRESS}.",
             "Votre identifiant de banque en ligne est {LOGIN}. Votre code provisoire vous parviendra séparément.",
             "Le prélèvement du {DATE} d'un montant de {AMOUNT} a été rejeté."),
    "hr": ("{TITLE} {FULL}, né(e) le {DOB} à {CITY}, demeurant {ADDRESS}, est engagé(e) à compter du {DATE}.",
           "Numéro de sécurité sociale : {NIR}. Matricule : {EMPID}.",
           "Le salaire sera versé sur le compte {IBAN}.",
           "Nous certifions que {FULL} est employé(e) par {COMPANY} (SIRET {SIRET}) depuis le {DATE}."),
    "admin": ("Votre demande concernant {FULL}, né(e) le {DOB}, a bien été enregistrée.",
              "Merci de nous adresser un justificatif de domicile à l'adresse {ADDRESS}.",
              "Votre numéro fiscal et votre n° de passeport {PASSPORT} figurent sur le récépissé.",
              "Pour tout renseignement, consultez {PUBURL} ou appelez le {SWITCHBOARD}."),
}
LETTER_BODIES_EN = {
    "medical": ("I saw {TITLE} {FULL}, DOB {DOB}, of {ADDRESS}, in clinic on {DATE}.",
                "She reports three weeks of pain. I have referred her to Dr {LAST:3} for an opinion.",
                "Insurance: {COMPANY}, member ID {MEMBERID}.", "Follow-up on {DATE}. Contact: {PHONE}."),
    "legal": ("We act for {TITLE} {FULL} of {ADDRESS}.",
              "Our client, born {DOB}, disputes invoice {INVOICE} issued by {COMPANY}.",
              "Failing payment within 14 days we will issue proceedings in {CITY}.",
              "Please contact {TITLE:2} {LAST:2} on {PHONE:2}."),
    "bank": ("We are pleased to confirm your new account, IBAN {IBAN}.",
             "Your card {CARD} will be sent to: {ADDRESS}.",
             "Your online banking username is {LOGIN}.", "The direct debit of {DATE} for {AMOUNT} was returned."),
    "hr": ("{TITLE} {FULL}, born on {DOB}, residing at {ADDRESS}, will start on {DATE}.",
           "SSN: {SSN}. Employee ID: {EMPID}.", "Salary will be paid to account {IBAN}.",
           "We confirm that {FULL} has been employed by {COMPANY} since {DATE}."),
    "admin": ("Your application for {FULL}, date of birth {DOB}, has been received.",
              "Please send proof of address to {ADDRESS}.", "Your passport number {PASSPORT} appears on the receipt.",
              "For more information visit {PUBURL} or call {SWITCHBOARD}."),
}

# Chat exchanges: each is a list of (speaker, line); A = agent, U = user. Answers follow their question.
CHAT_FR = (
    (("A", "Bonjour, je suis {FIRST:2}, comment puis-je vous aider ?"),),
    (("U", "Bonjour, je n'arrive plus à me connecter avec l'identifiant {LOGIN}."),),
    (("A", "Pouvez-vous me confirmer votre date de naissance ?"), ("U", "{DOB}")),
    (("A", "Votre date de naissance ?"), ("U", "je suis né le {DOB}")),
    (("A", "Et votre adresse postale s'il vous plaît ?"), ("U", "{ADDRESS}")),
    (("A", "Quelle est l'adresse de livraison ?"), ("U", "c'est {ADDRESS}")),
    (("A", "Vos nom et prénom ?"), ("U", "{FULL}")),
    (("A", "Votre nom de famille ?"), ("U", "{LAST}")),
    (("A", "Merci {TITLE} {LAST}. Votre numéro client ?"), ("U", "{CUSTID}")),
    (("A", "Un numéro où vous joindre ?"), ("U", "{PHONE}")),
    (("U", "mon mail c'est {EMAIL} et mon tel {PHONE}"),),
    (("A", "J'ai créé le ticket {TICKET} pour votre demande."),),
    (("U", "mon mdp c'était {PASSWORD} je crois"),
     ("A", "Ne communiquez jamais votre mot de passe. Vous recevrez un lien sur {EMAIL}.")),
    (("U", "ok merci, mon nom complet c'est {FULL}"),),
    (("U", "la commande {ORDER} du {DATE} n'est pas arrivée"),),
    (("A", "Notre service est joignable au {SWITCHBOARD} du lundi au vendredi."),),
    (("U", "vous pouvez rappeler mon conjoint, {FULL:3}, au {PHONE:3}"),),
    (("A", "Pouvez-vous me donner votre IBAN pour le remboursement ?"), ("U", "{IBAN}")),
    (("A", "Votre numéro de sécurité sociale ?"), ("U", "{NIR}")),
    (("U", "je vous envoie la photo de ma carte d'identité, n° {IDCARD}"),),
    (("A", "Merci, votre dossier {FILEID} est à jour. Bonne journée {FIRST} !"),),
)
CHAT_EN = (
    (("A", "Hi, this is {FIRST:2}, how can I help you today?"),),
    (("U", "Hi, I can't log in with my username {LOGIN}."),),
    (("A", "Could you confirm your date of birth?"), ("U", "{DOB}")),
    (("A", "Your DOB please?"), ("U", "born {DOB}")),
    (("A", "And your postal address, please?"), ("U", "{ADDRESS}")),
    (("A", "What is the delivery address?"), ("U", "it's {ADDRESS}")),
    (("A", "Your full name?"), ("U", "{FULL}")),
    (("A", "Your surname?"), ("U", "{LAST}")),
    (("A", "Thanks {TITLE} {LAST}. Your customer number?"), ("U", "{CUSTID}")),
    (("A", "A number to reach you on?"), ("U", "{PHONE}")),
    (("U", "my email is {EMAIL} and my phone {PHONE}"),),
    (("A", "I've opened ticket {TICKET} for you."),),
    (("U", "my password was {PASSWORD} i think"),
     ("A", "Never share your password. A reset link is on its way to {EMAIL}.")),
    (("U", "ok thanks, my full name is {FULL}"),),
    (("U", "order {ORDER} from {DATE} never arrived"),),
    (("A", "Our helpline is {SWITCHBOARD}, Monday to Friday."),),
    (("U", "you can call my partner {FULL:3} on {PHONE:3}"),),
    (("A", "Can I have the last four digits of your SSN?"), ("U", "{LAST4}"), ("A", "Thanks. And the full number for the form?"), ("U", "{SSN}")),
    (("U", "my SSN is {SSN} if you need it"),),
    (("A", "Which card would you like to use?"), ("U", "{CARD}")),
    (("A", "Thanks, case {FILEID} is updated. Have a nice day {FIRST}!"),),
)

PROMPTS_FR = (
    "Peux-tu résumer ce mail ?", "Corrige les fautes de ce texte :", "Traduis en anglais :",
    "Réponds à ce client de façon polie :", "Extrais les informations importantes de ce document :",
    "Rédige une réponse à ce courrier.", "Mets ce tableau au propre :", "Voici un message que j'ai reçu, qu'en penses-tu ?",
)
PROMPTS_EN = (
    "Can you summarise this email?", "Fix the grammar in this text:", "Translate to French:",
    "Write a polite reply to this customer:", "Extract the key fields from this document:",
    "Draft a response to this letter.", "Clean up this table:", "Here is a message I got, what do you think?",
)

PROMPTS_INLINE_FR = (
    "Rédige une lettre de motivation pour moi. Je m'appelle {FULL}, j'habite {ADDRESS}, tél. {PHONE}, mail {EMAIL}. Je postule chez {COMPANY}.",
    "Écris un mail à mon propriétaire {TITLE:2} {FULL:2} pour lui dire que je quitte l'appartement du {ADDRESS} le {DATE}.",
    "Aide-moi à remplir ce formulaire : nom {LAST}, prénom {FIRST}, né le {DOB}, n° de sécu {NIR}.",
    "Mon enfant {CHILD:3} est né(e) le {DOB:3}, quels vaccins faire cette année ?",
    "Corrige ce texte : « bonjour je suis {FULL} et je veux résilier mon contrat {CONTRACT} »",
    "Pourquoi ma connexion au serveur {IP} échoue avec l'utilisateur {LOGIN} et le mot de passe {PASSWORD} ?",
    "J'ai ce code qui plante : client = OpenAI(api_key=\"{APIKEY}\"). Pourquoi ?",
    "Fais un résumé du dossier de {TITLE} {FULL} (dossier {FILEID}) pour {TITLE:2} {LAST:2}.",
    "Traduis en anglais : « {FULL} habite au {ADDRESS} et travaille chez {COMPANY}. »",
    "Comment contester un prélèvement sur mon compte {IBAN} ? Ma banque est {COMPANY}.",
)
PROMPTS_INLINE_EN = (
    "Write a cover letter for me. My name is {FULL}, I live at {ADDRESS}, phone {PHONE}, email {EMAIL}. I'm applying to {COMPANY}.",
    "Draft an email to my landlord {TITLE:2} {FULL:2} saying I'm leaving the flat at {ADDRESS} on {DATE}.",
    "Help me fill in this form: surname {LAST}, first name {FIRST}, DOB {DOB}, SSN {SSN}.",
    "My child {CHILD:3} was born on {DOB:3}, which vaccines are due this year?",
    "Fix this text: \"hi i am {FULL} and i want to cancel my contract {CONTRACT}\"",
    "Why does my connection to server {IP} fail with user {LOGIN} and password {PASSWORD}?",
    "This code crashes: client = OpenAI(api_key=\"{APIKEY}\"). Why?",
    "Summarise the file of {TITLE} {FULL} (case {FILEID}) for {TITLE:2} {LAST:2}.",
    "Translate to French: \"{FULL} lives at {ADDRESS} and works for {COMPANY}.\"",
    "How do I dispute a direct debit on my account {IBAN}? My bank is {COMPANY}.",
)

CONFIG_LINES = (
    "DATABASE_URL={CONNSTR}", "db_url: \"{CONNSTR}\"", "OPENAI_API_KEY={APIKEY}", "api_key = \"{APIKEY}\"",
    "export GITHUB_TOKEN={APIKEY}", "token: {JWT}", "Authorization: Bearer {JWT}", "password: {PASSWORD}",
    "DB_PASSWORD={PASSWORD}", "smtp_password = '{PASSWORD}'", "admin_email = {EMAIL}", "owner: {FULL}",
    "maintainer = \"{FULL} <{EMAIL}>\"", "host: {IP}", "allowed_ips = [\"{IP}\", \"{IP:2}\"]",
    "api_key: {PLACEHOLDER}", "password: {PLACEHOLDER}", "version: {VERSION}", "image: app:{VERSION}",
    "checksum: sha256:{HASH}", "commit = \"{HASH}\"", "docs_url: {PUBURL}", "ssh_key: |\n{PRIVKEY}",
    "AWS_ACCESS_KEY_ID={APIKEY}", "user: {LOGIN}", "home_page = {URL}", "# contact: {FULL}, {PHONE}",
    "STRIPE_SECRET_KEY={APIKEY}", "api_key = os.environ[\"API_KEY\"]",
)
LOG_LINES = (
    "INFO login success user={LOGIN} ip={IP}", "WARN failed login for {EMAIL} from {IP}",
    "DEBUG request from {IP} agent=Mozilla/5.0 version={VERSION}", "ERROR payment declined card={CARD} customer={CUSTID}",
    "INFO order {ORDER} shipped tracking={TRACKING}", "INFO user {FULL} updated address to \"{ADDRESS}\"",
    "DEBUG auth header Bearer {JWT}", "INFO deploy {VERSION} commit {HASH}", "WARN token leaked: {APIKEY}",
    "INFO connected to {IP} port 443", "ERROR invoice {INVOICE} not found", "INFO password reset requested by {EMAIL}",
    "INFO new signup name=\"{FULL}\" phone={PHONE} dob={DOB}", "DEBUG session {HASH} for {LOGIN}",
)

SENTENCES_FR = (
    "Je m'appelle {FULL}.", "Mon nom est {FULL} et j'habite {ADDRESS}.", "L'adresse de {FULL} est {ADDRESS}.",
    "Merci d'envoyer le colis à {ADDRESS}.", "Envoyez-le à {TITLE} {FULL}, {ADDRESS}.",
    "{FULL} est né le {DOB}.", "{TITLE} {LAST} habite au {ADDRESS}.", "Appelle {FIRST} au {PHONE}.",
    "Mon numéro est le {PHONE}.", "Son adresse mail : {EMAIL}.", "Mon IBAN : {IBAN}", "Voici ma carte : {CARD}.",
    "Son numéro de sécu est {NIR}.", "Date de naissance : {DOB}.", "Né le {DOB} à {CITY}.",
    "Le serveur de {FIRST} a l'adresse IP {IP}.", "Son profil : {URL}", "Le mot de passe du wifi est {PASSWORD}.",
    "{FULL} travaille chez {COMPANY} à {CITY}.", "J'ai rencontré {PERSON} et {PERSON:2} hier à {CITY}.",
    "{PERSON} a dit qu'il passerait demain.", "Demande à {FIRST}, il connaît {FULL:2}.",
    "Rendez-vous le {DATE} au {COMPANY_ADDR} (siège de {COMPANY}).", "Le client {CUSTID} a appelé pour sa facture {INVOICE}.",
    "Voiture immatriculée {PLATE}, propriétaire : {FULL}.", "L'utilisateur {USERNAME} s'est connecté depuis {IP}.",
    "Dr {LAST} a reçu {FULL:2} en consultation.", "{FULL}, {ADDRESS}, tél. {PHONE}.",
    "Je vis à {CITY} depuis 2015.", "Les bureaux de {COMPANY} sont au {COMPANY_ADDR}.",
    "Mme {LAST} et M. {LAST:2} sont arrivés.", "Ma clé d'API est {APIKEY}, ne la partage pas.",
    "J'habite au {STREET}.", "Mon code postal est {ZIP}.", "Je voudrais changer mon adresse de facturation pour {ADDRESS}.",
    "Ma carte {CARD} expire le {EXPIRY}, cryptogramme {CVV}.", "Pouvez-vous augmenter le plafond de ma carte n° {CARD} ?",
    "Mon adresse IP est {IP}.", "Suivez-moi sur {URL}", "Bonjour, je suis {FIRST} de chez {COMPANY}.",
    "Écris à {FULL} à l'adresse {EMAIL}.", "Le numéro de {FULL} est le {PHONE}.", "Quel est l'IBAN de {FULL} ? C'est {IBAN}.",
    "Ma date de naissance est le {DOB}.", "{FULL} habite {ADDRESS}, code d'accès 4B27.",
    "Le livreur doit déposer le colis au {ADDRESS}.", "Envoie une copie à {TITLE} {LAST} ({EMAIL}).",
    "{PLAIN}, tu peux me rappeler ?", "Merci {FIRST} !", "Bien reçu, {PERSON}.",
    "Mon numéro de permis est {DL}.", "Suis-moi sur Insta : @{USERNAME}", "Mon pseudo sur le forum, c'est {USERNAME}.", "Numéro de passeport de {FULL} : {PASSPORT}.",
    "Le dossier de {FULL} porte la référence {FILEID}.", "Je suis {FULL}, client n° {CUSTID}.",
)
SENTENCES_EN = (
    "My name is {FULL}.", "My name is {FULL} and I live at {ADDRESS}.", "The address of {FULL} is {ADDRESS}.",
    "Please send it to {ADDRESS}.", "Ship to: {FULL}, {ADDRESS}", "{FULL} was born on {DOB}.",
    "{TITLE} {LAST} lives at {ADDRESS}.", "Call {FIRST} at {PHONE}.", "My number is {PHONE}.",
    "Her email is {EMAIL}.", "My IBAN is {IBAN}.", "Here is my card: {CARD}.", "His SSN is {SSN}.",
    "DOB: {DOB}", "Born {DOB} in {CITY}.", "{FIRST}'s server has IP {IP}.", "Check out my profile at {URL}",
    "The wifi password is {PASSWORD}.", "{FULL} works at {COMPANY} in {CITY}.",
    "I met {PERSON} and {PERSON:2} yesterday in {CITY}.", "{PERSON} said he'd come by tomorrow.",
    "Ask {FIRST}, he knows {FULL:2}.", "Meeting on {DATE} at {COMPANY_ADDR} ({COMPANY} HQ).",
    "Customer {CUSTID} called about invoice {INVOICE}.", "Car with plate {PLATE} belongs to {FULL}.",
    "User {USERNAME} logged in from {IP}.", "Dr {LAST} saw {FULL:2} this morning.", "{FULL}, {ADDRESS}, tel {PHONE}.",
    "I have lived in {CITY} since 2015.", "{COMPANY} offices are at {COMPANY_ADDR}.",
    "Mrs {LAST} and Mr {LAST:2} have arrived.", "My API key is {APIKEY}, don't share it.",
    "What is the IP {IP} used for?", "Is {PHONE} your phone number?", "I'd like to update my address to {ADDRESS}.",
    "Please charge card number {CARD} for {AMOUNT}.", "My driver license is {DL}.", "Visit {URL} for my portfolio.",
    "Could you send the documents to {EMAIL}?", "{FULL}'s passport number is {PASSPORT}.",
    "Your account {ACCOUNT} is now linked to {EMAIL}.", "Reach me at {PHONE} or {EMAIL}.",
    "I live at {STREET}.", "My zip code is {ZIP}.", "Please update my billing address to {ADDRESS}.",
    "My card {CARD} expires {EXPIRY}, CVV {CVV}.", "I want to increase the limit on my card # {CARD}.",
    "My IP is {IP}.", "Follow me on {URL}", "Hi, I'm {FIRST} from {COMPANY}.", "Kindly send it to {EMAIL}.",
    "{FULL}'s phone is {PHONE}.", "What's {FULL}'s IBAN? It's {IBAN}.", "My date of birth is {DOB}.",
    "{FULL} lives at {ADDRESS}.", "Deliver the parcel to {ADDRESS}.",
    "Send a copy to {TITLE} {LAST} ({EMAIL}).", "{FIRST}, can you call me back?", "Thanks {FIRST}!",
    "Got it, {PERSON}.", "Follow me on Twitter @{USERNAME}", "My gamertag is {USERNAME}.", "Who is {FULL}?", "Is {FULL} the account holder?", "{TITLE} {FULL} will call you.",
    "The bank account of {FULL} is {IBAN}.", "I'm {FULL}, customer number {CUSTID}.",
    "{FULL} from {CITY} won the prize.", "My SSN is {SSN} and my DOB is {DOB}.",
    "Please wire the money to {IBAN} under the name {FULL}.", "{FULL}'s website is {URL}",
    "His ip address is {IP} and his username is {USERNAME}.", "Her NI number is {NINO}.",
    "Can you help {FIRST} with the login {LOGIN}?", "I was born on {DOB} in {CITY}.",
)

NARRATIVE_FR = (
    "« Je ne signerai rien », a déclaré {FULL} à la sortie de l'audience.",
    "{FULL}, 42 ans, habite {ADDRESS} depuis dix ans.",
    "— Tu as vu {FIRST:2} ce matin ? demanda {FIRST}.",
    "— Non, répondit {PERSON:2}, il est parti chez {FULL:3}.",
    "Selon {TITLE:2} {LAST:2}, le dossier a été transmis au lycée Victor Hugo de {CITY}.",
    "{PERSON} a été reçu à l'hôpital Georges Pompidou puis transféré à {CITY}.",
    "La famille {LAST} s'est installée au {ADDRESS} en 2019.",
    "Interrogée, {FULL:2} affirme n'avoir jamais rencontré {PERSON}.",
    "Le maire de {CITY} a remis la médaille à {FULL}.",
    "{FIRST} et {FIRST:2} se sont mariés le {DATE} à {CITY}.",
    "D'après la Fondation Jean Jaurès, l'étude sera publiée le {DATE}.",
    "« Appelle-moi au {PHONE} », m'a écrit {FIRST}.",
    "Née le {DOB} à {CITY}, {FULL} a grandi chez ses grands-parents.",
    "{TITLE} {FULL}, domicilié {ADDRESS}, est convoqué le {DATE} à {TIME}.",
    "L'entreprise {COMPANY}, dont le siège est au {COMPANY_ADDR}, emploie 250 personnes.",
    "{PERSON} ({EMAIL}) coordonne le projet avec {PERSON:2}.",
    "Le témoin, {FULL:3}, a reconnu le véhicule immatriculé {PLATE}.",
    "Mon voisin {FIRST:3} m'a prêté sa perceuse.",
    "Je travaille avec {FULL:2} depuis trois ans chez {COMPANY}.",
    "Elle s'appelle {FULL:2} et elle vit au {ADDRESS:2}.",
)
NARRATIVE_EN = (
    "\"I won't sign anything,\" {FULL} told reporters outside the court.",
    "{FULL}, 42, has lived at {ADDRESS} for ten years.",
    "\"Did you see {FIRST:2} this morning?\" asked {FIRST}.",
    "\"No,\" said {PERSON:2}, \"he went to {FULL:3}'s place.\"",
    "According to {TITLE:2} {LAST:2}, the file was sent to Abraham Lincoln High School in {CITY}.",
    "{PERSON} was admitted to Johns Hopkins Hospital and later moved to {CITY}.",
    "The {LAST} family moved to {ADDRESS} in 2019.",
    "When asked, {FULL:2} said she had never met {PERSON}.",
    "The mayor of {CITY} handed the award to {FULL}.",
    "{FIRST} and {FIRST:2} got married on {DATE} in {CITY}.",
    "The Bill & Melinda Gates Foundation will publish the study on {DATE}.",
    "\"Call me on {PHONE},\" {FIRST} texted.",
    "Born on {DOB} in {CITY}, {FULL} was raised by her grandparents.",
    "{TITLE} {FULL}, of {ADDRESS}, is summoned on {DATE} at {TIME}.",
    "{COMPANY}, headquartered at {COMPANY_ADDR}, employs 250 people.",
    "{PERSON} ({EMAIL}) runs the project with {PERSON:2}.",
    "The witness, {FULL:3}, recognised the car with plate {PLATE}.",
    "My neighbour {FIRST:3} lent me his drill.",
    "I have worked with {FULL:2} for three years at {COMPANY}.",
    "Her name is {FULL:2} and she lives at {ADDRESS:2}.",
)
PROSE_SUBJECTS_FR = (
    "{PERSON:#}", "{FULL:#}", "{TITLE:#} {LAST:#}", "{FIRST:#}", "Mon collègue {FULL:#}", "Ma sœur {FIRST:#}",
    "Le docteur {LAST:#}", "L'avocate de {FULL:#}", "{PLAIN:#}", "Mon frère {FIRST:#}", "Le fils de {TITLE:#} {LAST:#}",
    "La stagiaire, {FULL:#},", "{LAST:#}", "Notre voisin {PERSON:#}", "Maître {LAST:#}", "Le professeur {FULL:#}",
    "{FIRST:#} et {FIRST:2}", "Mme {LAST:#}", "M. {LAST:#}", "Le client {FULL:#}", "La patiente {FULL:#}",
)
PROSE_PREDICATES_FR = (
    "a appelé ce matin", "viendra demain", "est en arrêt maladie", "a signé le contrat", "m'a envoyé le dossier",
    "a démissionné", "ne répond plus", "a été hospitalisé", "a validé la facture {INVOICE}", "est passé au bureau",
    "a perdu sa carte", "a déménagé", "a rendez-vous le {DATE}", "attend toujours son remboursement",
    "a écrit à la direction", "sera absent jusqu'au {DATE}", "a laissé un message", "a réservé une table",
    "a obtenu son diplôme", "a porté plainte", "nous a recommandé ce garage", "a changé de numéro",
    "travaille chez {COMPANY}", "déjeune", "a rencontré le maire de {CITY}", "part à la retraite",
)
PROSE_COMPLEMENTS_FR = (
    "", "", "", " avec {FULL:#}", " pour {TITLE:#} {LAST:#}", " chez {FIRST:#}", " à la demande de {PERSON:#}",
    " avec son conjoint {FIRST:#}", " selon {FULL:#}", " et {PERSON:#} aussi", " (voir avec {FIRST:#})",
    " d'après {TITLE:#} {LAST:#}", ", a confirmé {FULL:#}", " à {CITY}", " le {DATE}", " avec l'aide de {LAST:#}",
)
PROSE_OPENERS_FR = ("Hier, ", "D'après mes notes, ", "Pour info, ", "Au fait, ", "Comme prévu, ", "Ce matin, ",
                    "Je crois que ", "Selon le planning, ")
PROSE_SUBJECTS_EN = (
    "{PERSON:#}", "{FULL:#}", "{TITLE:#} {LAST:#}", "{FIRST:#}", "My colleague {FULL:#}", "My sister {FIRST:#}",
    "Dr {LAST:#}", "{FULL:#}'s lawyer", "{PLAIN:#}", "My brother {FIRST:#}", "{TITLE:#} {LAST:#}'s son",
    "The intern, {FULL:#},", "{LAST:#}", "Our neighbour {PERSON:#}", "Professor {FULL:#}", "{FIRST:#} and {FIRST:2}",
    "Mrs {LAST:#}", "Mr {LAST:#}", "Customer {FULL:#}", "The patient, {FULL:#},", "Judge {LAST:#}",
)
PROSE_PREDICATES_EN = (
    "called this morning", "will come tomorrow", "is on sick leave", "signed the contract", "sent me the file",
    "resigned", "is not answering", "was admitted to hospital", "approved invoice {INVOICE}", "stopped by the office",
    "lost her card", "moved house", "has an appointment on {DATE}", "is still waiting for a refund",
    "wrote to management", "is away until {DATE}", "left a message", "booked a table", "graduated",
    "filed a complaint", "recommended this garage", "changed numbers", "works at {COMPANY}", "is having lunch",
    "met the mayor of {CITY}", "is retiring",
)
PROSE_COMPLEMENTS_EN = (
    "", "", "", " with {FULL:#}", " for {TITLE:#} {LAST:#}", " at {FIRST:#}'s", " at the request of {PERSON:#}",
    " with their partner {FIRST:#}", " according to {FULL:#}", " and so did {PERSON:#}", " (check with {FIRST:#})",
    ", {TITLE:#} {LAST:#} said", ", confirmed {FULL:#}", " in {CITY}", " on {DATE}", " with help from {LAST:#}",
)
PROSE_OPENERS_EN = ("Yesterday, ", "According to my notes, ", "FYI, ", "By the way, ", "As planned, ", "This morning, ",
                    "I think ", "Per the schedule, ")

NOTES_HEAD_FR = ("Compte rendu de réunion du {DATE}", "Notes CRM - client {CUSTID}", "Transmissions infirmières du {DATE}",
                 "Réunion d'équipe", "Entretien annuel - {FULL}", "Suivi dossier {FILEID}")
NOTES_HEAD_EN = ("Meeting minutes {DATE}", "CRM notes - customer {CUSTID}", "Nursing handover {DATE}", "Team sync",
                 "Performance review - {FULL}", "Case follow-up {FILEID}")
NOTES_FR = (
    "{PERSON} prend en charge la relance de {COMPANY}.", "Appeler {TITLE:2} {LAST:2} au {PHONE:2} avant vendredi.",
    "Nouvelle adresse du client : {ADDRESS}", "{FIRST} en congé jusqu'au {DATE}.", "Prochaine réunion le {DATE} à {TIME}.",
    "Le patient {FULL:3} (né le {DOB:3}) se plaint de douleurs.", "Ticket {TICKET} clos par {FIRST:2}.",
    "Mot de passe du compte partagé : {PASSWORD}", "Version {VERSION} déployée par {PERSON:2}.",
    "Envoyer le contrat {CONTRACT} à {EMAIL}.", "{LAST} demande un remboursement sur l'IBAN {IBAN}.",
)
NOTES_EN = (
    "{PERSON} to chase {COMPANY}.", "Call {TITLE:2} {LAST:2} on {PHONE:2} before Friday.",
    "Customer's new address: {ADDRESS}", "{FIRST} on leave until {DATE}.", "Next meeting {DATE} at {TIME}.",
    "Patient {FULL:3} (DOB {DOB:3}) complains of pain.", "Ticket {TICKET} closed by {FIRST:2}.",
    "Shared account password: {PASSWORD}", "Version {VERSION} deployed by {PERSON:2}.",
    "Send contract {CONTRACT} to {EMAIL}.", "{LAST} asks for a refund to IBAN {IBAN}.",
)
SMS_FR = (
    "t'es où ?", "je suis chez {FIRST:3}", "mon adresse c'est {ADDRESS}", "appelle {FIRST:3} au {PHONE:3}",
    "tu peux me renvoyer le code wifi ? c'est {PASSWORD} non ?", "rdv {DATE} à {TIME} devant la gare",
    "{FULL:3} m'a donné ton numéro", "mon nouveau num : {PHONE}", "envoie sur {EMAIL}", "ok merci {FIRST:2}",
    "c'est l'anniv de {FIRST:3} le {DOB:3}", "mon iban {IBAN}", "bisous", "la plaque c'est {PLATE}",
)
SMS_EN = (
    "where are you?", "i'm at {FIRST:3}'s", "my address is {ADDRESS}", "call {FIRST:3} on {PHONE:3}",
    "can you resend the wifi code? it's {PASSWORD} right?", "meet {DATE} at {TIME} by the station",
    "{FULL:3} gave me your number", "new number: {PHONE}", "send it to {EMAIL}", "ok thanks {FIRST:2}",
    "it's {FIRST:3}'s birthday, born {DOB:3}", "my iban {IBAN}", "love you", "plate is {PLATE}",
)

CLEAN_FR = (
    "La version {VERSION} corrige un bug d'affichage.", "Consultez la documentation : {PUBURL}",
    "La réunion publique aura lieu le {DATE} à {TIME} à la mairie de {CITY}.",
    "{COMPANY} (SIRET {SIRET}, TVA {VAT}) a publié ses résultats le {DATE}.",
    "Standard de {COMPANY} : {SWITCHBOARD}.", "Le siège de {COMPANY} se trouve au {COMPANY_ADDR}.",
    "Facture {INVOICE} du {DATE} : {AMOUNT} TTC.", "Commande {ORDER} expédiée, suivi {TRACKING}.",
    "Ticket {TICKET} : incident résolu.", "Empreinte SHA-256 : {HASH}", "Remplacez {PLACEHOLDER} par votre clé.",
    "Le festival de {CITY} ouvrira le {DATE}.", "Nos agences de {CITY} et de {CITY} sont fermées le {DATE}.",
    "Le lycée Jean Moulin accueille 800 élèves.", "La rue Victor Hugo sera fermée à la circulation.",
    "Prix : {AMOUNT}. Livraison offerte dès 50 €.", "Numéro vert : 0 800 {NUM} {NUM}, appel gratuit.",
    "Site officiel : https://www.{COMPANYDOMAIN}", "Plus d'infos sur www.{COMPANYDOMAIN} ou sur {PUBURL}.", "Le vol AF{NUM} à destination de {CITY} est retardé.",
    "Le serveur tourne sous Debian {VERSION} avec Python {VERSION}.", "Mise à jour de Windows {VERSION} disponible.",
    "Le Président de la République a reçu le Premier ministre le {DATE}.", "La Directrice générale présentera le budget.",
    "Ouvrez Excel, puis le fichier Budget_{DATE}.xlsx.", "Le Centre Hospitalier Jacques Cœur recrute des infirmiers.",
    "Le musée Picasso est fermé le mardi.", "L'avenue des Champs-Élysées est piétonne le dimanche.",
)
CLEAN_EN = (
    "Version {VERSION} fixes a display bug.", "See the documentation: {PUBURL}",
    "The town hall meeting takes place on {DATE} at {TIME} in {CITY}.",
    "{COMPANY} (VAT {VAT}) published its results on {DATE}.", "{COMPANY} switchboard: {SWITCHBOARD}.",
    "{COMPANY} headquarters are at {COMPANY_ADDR}.", "Invoice {INVOICE} dated {DATE}: {AMOUNT}.",
    "Order {ORDER} shipped, tracking {TRACKING}.", "Ticket {TICKET}: incident resolved.", "SHA-256: {HASH}",
    "Replace {PLACEHOLDER} with your own key.", "The {CITY} festival opens on {DATE}.",
    "Our {CITY} and {CITY} branches are closed on {DATE}.", "Lincoln Elementary School has 800 pupils.",
    "Washington Street will be closed to traffic.", "Toll-free: 1-800-{NUM}-{NUM}.",
    "Official site: https://www.{COMPANYDOMAIN}", "More at www.{COMPANYDOMAIN} or {PUBURL}.", "Price: {AMOUNT}. Free shipping over $50.",
    "Flight BA{NUM} to {CITY} is delayed.", "The server runs Ubuntu {VERSION} with Python {VERSION}.",
    "Windows {VERSION} update available.", "The President met the Prime Minister on {DATE}.",
    "The Chief Executive will present the budget.", "Open Excel, then the file Budget_{DATE}.xlsx.",
    "Martin Luther King Jr. Day is a federal holiday.", "The Victoria and Albert Museum is closed on Mondays.",
)

KINDS = (
    ("email", email, 11), ("thread", thread, 4), ("letter", letter, 12), ("form", form, 12), ("chat", chat, 9), ("prompt", prompt, 8),
    ("csv", csv_table, 6), ("markdown", markdown_table, 5), ("config", config, 5), ("logs", logs, 4),
    ("pdf", pdf, 6), ("sentences", sentences, 17), ("narrative", narrative, 8), ("notes", notes, 5),
    ("messages", messages, 4), ("clean", clean, 4), ("json", json_record, 4), ("vcard", vcard, 3),
    ("invoice", invoice, 4), ("shipping", shipping, 3),
)
