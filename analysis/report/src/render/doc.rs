//! A small, format-neutral document: what the report says, without saying
//! how it looks. [`super::sections`] writes it once; the HTML and Markdown
//! printers turn it into text, which keeps the two twins identical in
//! content by construction. All text in it is plain (unescaped) text.

use super::super::model::ShownGame;

/// The whole report as a title and a flat list of blocks.
#[derive(Clone, Debug, Default)]
pub(super) struct Doc {
    pub title: String,
    pub blocks: Vec<Block>,
}

#[derive(Clone, Debug)]
pub(super) enum Block {
    /// Level 2 is a section (listed in the table of contents), 3 a
    /// sub-section (a rating group), 4 a small heading inside one.
    Heading {
        level: u8,
        text: String,
        id: String,
    },
    Paragraph(String),
    /// A secondary remark (how to read a table or plot).
    Aside(String),
    /// The headline verdicts: shown first and most prominently.
    Callout(Vec<String>),
    List(Vec<String>),
    /// A list whose items each carry a verdict's colour (the verdicts, one
    /// sentence each).
    TonedList(Vec<(Tone, String)>),
    Table(Table),
    /// A plot by file stem (`plots/<stem>.png`) and an optional caption. If
    /// that plot was not drawn (no data), the printers say so instead.
    Figure {
        stem: String,
        caption: String,
    },
    /// Preformatted text: the experiment file, commands.
    Code(String),
    /// Games to replay on a drawn board. Only the HTML can show them; the
    /// Markdown has the section's list of them instead.
    GameViewer(Vec<ShownGame>),
}

/// How a table row (a verdict) is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tone {
    Good,
    Bad,
    Unsure,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Align {
    Left,
    Right,
}

#[derive(Clone, Debug)]
pub(super) struct Column {
    pub title: String,
    pub align: Align,
}

#[derive(Clone, Debug)]
pub(super) struct Row {
    pub cells: Vec<String>,
    pub tone: Option<Tone>,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// A column shown as a coloured badge in the row's tone (the verdict).
    pub badge_column: Option<usize>,
}

impl Table {
    /// Columns from `(title, align)` pairs.
    pub fn new(columns: &[(&str, Align)]) -> Self {
        Table {
            columns: columns
                .iter()
                .map(|(title, align)| Column {
                    title: (*title).to_owned(),
                    align: *align,
                })
                .collect(),
            rows: Vec::new(),
            badge_column: None,
        }
    }

    pub fn push(&mut self, cells: Vec<String>) {
        self.rows.push(Row { cells, tone: None });
    }

    pub fn push_toned(&mut self, cells: Vec<String>, tone: Tone) {
        self.rows.push(Row {
            cells,
            tone: Some(tone),
        });
    }
}

impl Doc {
    pub fn heading(&mut self, level: u8, text: impl Into<String>) {
        let text = text.into();
        let id = self.unique_id(&text);
        self.blocks.push(Block::Heading { level, text, id });
    }

    pub fn paragraph(&mut self, text: impl Into<String>) {
        self.blocks.push(Block::Paragraph(text.into()));
    }

    pub fn aside(&mut self, text: impl Into<String>) {
        self.blocks.push(Block::Aside(text.into()));
    }

    pub fn table(&mut self, table: Table) {
        self.blocks.push(Block::Table(table));
    }

    pub fn figure(&mut self, stem: impl Into<String>, caption: impl Into<String>) {
        self.blocks.push(Block::Figure {
            stem: stem.into(),
            caption: caption.into(),
        });
    }

    pub fn push(&mut self, block: Block) {
        self.blocks.push(block);
    }

    /// A URL fragment for a heading (`game-balance`), unique in the document.
    fn unique_id(&self, text: &str) -> String {
        let mut base = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                base.push(c.to_ascii_lowercase());
            } else if !base.is_empty() && !base.ends_with('-') {
                base.push('-');
            }
            if base.len() >= 40 {
                break;
            }
        }
        let base = base.trim_end_matches('-').to_owned();
        let base = if base.is_empty() {
            "section".to_owned()
        } else {
            base
        };
        let taken = |id: &str| {
            self.blocks
                .iter()
                .any(|b| matches!(b, Block::Heading { id: other, .. } if other == id))
        };
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|k| format!("{base}-{k}"))
            .find(|id| !taken(id))
            .unwrap_or(base)
    }
}
