//! The kinds of an [`Input`], each a type of its own ([`TextInput`], [`NumberInput`],
//! [`CheckboxInput`], [`ChoiceInput`], [`ColorInput`], [`AngleInput`]) holding only the options
//! its kind takes, so that an option a kind cannot take does not compile (`Input`'s doc shows
//! it). Each is made by [`Input`]'s own entry points (`Input::text("Name")`) and is an [`Input`]
//! where one is taken (`f.edit(key, &Input::text("Name").char_limit(40), &mut name)`: it derefs
//! to its `Input`), or `.into()` one to keep inputs of several kinds together.

use std::borrow::Cow;

use super::Input;

macro_rules! kinds {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name(pub(super) Input);

        impl std::ops::Deref for $name {
            type Target = Input;

            fn deref(&self) -> &Input {
                &self.0
            }
        }

        impl AsRef<Input> for $name {
            fn as_ref(&self) -> &Input {
                &self.0
            }
        }

        impl From<$name> for Input {
            fn from(kind: $name) -> Input {
                kind.0
            }
        }

        impl $name {
            /// A sentence on the field for both audiences: the person's tooltip on the widget,
            /// and words after the rules for agents ("0 means no limit").
            #[must_use]
            pub fn hint(mut self, hint: impl Into<Cow<'static, str>>) -> Self {
                self.0.look.hint = Some(hint.into());
                self
            }
        }
    )*};
}

kinds! {
    /// A line of text, several lines, code, or a secret ([`Input::text`], [`Input::secret`]):
    /// its length, whether it may be empty, and egui's `TextEdit` options.
    TextInput;
    /// A number in a range ([`Input::number`], [`Input::integer`]): its decimals, and its drag
    /// value or slider with egui's options.
    NumberInput;
    /// Yes or no ([`Input::checkbox`]): a checkbox, a switch or a selectable label.
    CheckboxInput;
    /// One of a list of options ([`Input::choice`]): a combo box, radio buttons or selectable
    /// labels.
    ChoiceInput;
    /// A colour ([`Input::color`]): how its picker treats alpha.
    ColorInput;
    /// An angle in radians, shown in degrees ([`Input::angle`]).
    AngleInput;
}
