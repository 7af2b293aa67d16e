//! The cues of rules written in other languages than English, one small lexicon per language:
//! its words of a ban ("Niemals `X` ausführen", "Ne lance jamais `X`", "No ejecutes `X`"), of
//! an ask ("Vor jedem `X` bitte bei mir nachfragen"), of the way to take in a choice ("Usa
//! `X`, nunca `Y`") and of changing a file ("ne doit pas être modifié"). The commands are in
//! code spans anyway; only the cues need words. Each list is lower-case, sorted.

/// The cue words of one language.
pub(crate) struct Language {
    /// Words and phrases of a ban.
    pub(crate) forbid: &'static [&'static str],
    /// Words and phrases that ask to be asked first.
    pub(crate) ask: &'static [&'static str],
    /// Verbs that open the way to take ("use X, never Y").
    pub(crate) take: &'static [&'static str],
    /// Verbs of changing a file (a ban with one is about writing it, not reading it).
    pub(crate) change: &'static [&'static str],
}

pub(crate) const GERMAN: Language = Language {
    forbid: &[
        "darf nicht",
        "dürfen nicht",
        "keinesfalls",
        "nicht anfassen",
        "nicht ausführen",
        "nicht bearbeiten",
        "nicht benutzen",
        "nicht erlaubt",
        "nicht löschen",
        "nicht starten",
        "nicht verwenden",
        "nicht ändern",
        "nie",
        "niemals",
        "tabu",
        "untersagt",
        "verboten",
    ],
    ask: &[
        "frag mich",
        "frage mich",
        "fragen sie mich",
        "mit mir abklären",
        "nachfragen",
        "ohne zu fragen",
        "rückfrage",
    ],
    take: &["benutze", "nutze", "verwende"],
    change: &[
        "bearbeiten",
        "bearbeitet",
        "geändert",
        "ändern",
        "überschreiben",
    ],
};

pub(crate) const FRENCH: Language = Language {
    forbid: &[
        "défendu",
        "interdit",
        "interdite",
        "interdites",
        "interdits",
        "jamais",
        "n'utilise pas",
        "ne doit pas",
        "ne doivent pas",
        "ne lance jamais",
        "ne lance pas",
        "ne pas",
        "proscrit",
    ],
    ask: &[
        "demande-moi",
        "demandez-moi",
        "sans demander",
        "sans mon accord",
    ],
    take: &["utilise", "utilisez"],
    change: &[
        "modifier",
        "modifiez",
        "modifié",
        "modifiée",
        "modifiés",
        "écrire",
    ],
};

pub(crate) const SPANISH: Language = Language {
    forbid: &[
        "jamas",
        "jamás",
        "no borres",
        "no ejecutes",
        "no está permitido",
        "no modifiques",
        "no uses",
        "nunca",
        "prohibida",
        "prohibidas",
        "prohibido",
        "prohibidos",
        "tabú",
    ],
    ask: &["consúltame", "pregúntame", "sin preguntar"],
    take: &["usa", "utiliza"],
    change: &["editar", "modifica", "modificar", "modifiques"],
};

pub(crate) const PORTUGUESE: Language = Language {
    forbid: &[
        "nunca",
        "não apague",
        "não execute",
        "não modifique",
        "não pode",
        "não rode",
        "não use",
        "não é permitido",
        "proibida",
        "proibidas",
        "proibido",
        "proibidos",
    ],
    ask: &["me pergunte", "pergunte-me", "sem perguntar"],
    take: &[],
    change: &["alterar", "editar", "modificar", "modifique"],
};

pub(crate) const ITALIAN: Language = Language {
    forbid: &[
        "non usare",
        "tabù",
        "vietata",
        "vietate",
        "vietati",
        "vietato",
    ],
    ask: &[],
    take: &[],
    change: &[],
};

/// Every language above.
pub(crate) const LANGUAGES: &[&Language] = &[&GERMAN, &FRENCH, &SPANISH, &PORTUGUESE, &ITALIAN];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_list_is_sorted_and_lower_case() {
        for language in LANGUAGES {
            for list in [
                language.forbid,
                language.ask,
                language.take,
                language.change,
            ] {
                assert!(list.windows(2).all(|pair| pair[0] < pair[1]), "{list:?}");
                assert!(
                    list.iter().all(|cue| cue.to_lowercase() == *cue),
                    "{list:?}"
                );
            }
        }
    }
}
