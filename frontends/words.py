"""The fixed words of the terminal game's screen, in English, German and Chinese (``spb play --lang de|zh``).

Each language is a table of phrases with ``{placeholders}`` and its own nouns with their singular
and plural, so a count is said the language's way ("1 Punkt", "2 Punkte") and no English plural is
built for another language. Card, colour, deck and phase names come from the ruleset in the same
language when it has them (spbc.lang.model.RulesModel.in_language); ``session`` holds the phrases
of spbc.table.session (prompts, help, answers to commands) and ``number`` how a count is written
(Chinese puts no space before its measure word: "3張卡"). The move notation and the reasons the
notation refuses a move stay English: records and mails are written in them.

>>> GERMAN.count(2, "point"), GERMAN("to_move", name="Anna")
('2 Punkte', 'Anna ist am Zug')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from spbc.lang.model import RulesModel


@dataclass(frozen=True)
class Words:
    """The phrases and nouns of one language."""

    language: str
    phrases: dict[str, str]
    nouns: dict[str, tuple[str, str]]  # noun -> (singular, plural)
    last: str  # the word before the last item of a list: "and", "und"
    rows: dict[str, str] = field(default_factory=dict)  # a board row's id as the screen shows it
    renamed: dict[str, str] = field(default_factory=dict)  # an English name -> its name in this language
    reasons: dict[str, str] = field(default_factory=dict)  # why a game stopped ("quit") in this language
    session: dict[str, str] = field(default_factory=dict)  # the session's prompts and answers (SESSION_WORDS' keys)
    number: str = "{n} {noun}"  # a number with its noun: "3 Rubel", Chinese "3張卡" (no space)

    def __call__(self, key: str, **values: object) -> str:
        """A phrase with its placeholders filled: ``words("to_move", name="Anna")``."""
        return self.phrases[key].format(**values)

    def count(self, number: int, noun: str) -> str:
        """A number with its noun in the right form: "1 ruble", "3 Rubel"."""
        return self.number.format(n=number, noun=self.noun(number, noun))

    def noun(self, number: int, noun: str) -> str:
        """The noun's form for a number, without the number: "card", "Karten"."""
        singular, plural = self.nouns[noun]
        return singular if number == 1 else plural

    def either(self, items: list[str], last: str) -> str:
        """``a, b or c`` with the language's word for the last join."""
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} {items[-1]}"

    def row(self, row: str) -> str:
        return self.rows.get(row, row)

    def localize(self, model: RulesModel) -> RulesModel:
        """The model with names in this language when the ruleset has them, else as it is."""
        return model.in_language(self.language) if self.language in model.languages else model

    def for_model(self, model: RulesModel) -> Words:
        """These words knowing the ruleset's names in their language, for the events that carry a
        phase's or deck's English name (:meth:`name`)."""
        local = self.localize(model)
        renamed = {old.name: new.name for old, new in zip(model.phases, local.phases)}
        renamed.update({old.name: new.name for old, new in zip(model.decks, local.decks)})
        renamed.update({old.name: new.name for old, new in zip(model.cards, local.cards)})
        renamed.update({old.name: new.name for old, new in zip(model.colours, local.colours)})
        return replace(self, renamed=renamed)

    def name(self, english: str) -> str:
        """A phase's, deck's or card's English name in this language (as it is when unknown)."""
        return self.renamed.get(english, english)


ENGLISH = Words(
    "en",
    {
        "round": "Round {round}{last}, {phase}: ", "last_round": " (last round)", "to_move": "{name} to move",
        "hand": "Your hand ({size}/{limit}): {hand}", "empty": "empty", "since": "Since your last turn: {moves}",
        "your_moves": "Your moves: ", "only_pass": "You can only pass: press Enter to pass.",
        "type": "Type a move, or help, hint, moves, board, log, undo, save, quit.",
        "board": "Board: prices for {name}", "col_row": "row", "col_card": "card", "col_colour": "colour",
        "col_price": "price", "col_income": "income", "col_note": "note", "board_empty": "(the board is empty)", "discard_pile": "Discard pile ({cards}): {names}",
        "needs": "needs {what}", "over": "over {card}", "a_card_of": "{colour} card", "or": "or",
        "phases": "Phases", "col_phase": "phase", "col_deck": "deck", "col_left": "cards left", "col_starts": "starts",
        "you": "you", "on_turn": "on turn", "secret_rubles": "? rubles", "hand_size": "hand {size}/{limit}",
        "starts": ", starts {phases}", "holds_disc": ", holds the disc", "pays": "\n  pays: ", "no_more": "(no more)", "nothing": "nothing",
        "at_the_end": "\n  at the end: {bonus}", "used": "\n  used this round: ", "lying": "\n  lying on a card: ",
        "nobles": "{deck} ({n} distinct)", "colour_cards": "{colour} cards",
        "end_bonus": "+{points} for {nobles}", "hand_penalty": ", -{penalty} for {cards} in hand",
        "computer": " (computer)", "new_game": "New game of {ruleset}: {seats}",
        "resumed_game": "Resumed game of {ruleset}: {seats}",
        "type_help": "Type help for the commands and the move notation.", "round_phase": "Round {round}: {phase}",
        "handover": "pass the keyboard to {name}", "only_look": "Only {name} should look at the screen now.",
        "scores": "{phase} scores:", "ran_out": "{decks} ran out: round {round} is the last round.",
        "bought": "{name} buys {points} for {rubles} with the {card}",
        "counted": "{n} {colour} {cards}",
        "discarded": "{cards} of the lower row discarded{names}", "moved": "{cards} moved down from the upper row",
        "round_end": "End of round {round}: {discarded}; {moved}.", "next_round": "Next round starts: {starters}.",
        "legal_moves": "Legal moves of {name}", "col_move": "move", "col_cost": "cost",
        "stopped": "Stopped ({reason}): the game was not finished ({context}).",
        "record_so_far": "Record of the moves so far written to {record} (the seed is left out until a game is over)",
        "saved_to_continue": "Saved the game to {path}; spb play --load {path} continues it{secret}",
        "saved_secret": " (it holds every hand and the order of the decks: keep it closed until the game ends)",
        "log_title": "The game so far", "log_cut": "… (earlier: type log)", "log_empty": "(no moves yet)",
        "standings": "Final standings", "st_rank": "rank", "st_player": "player", "st_points": "points",
        "st_nobles": "nobles", "st_rubles": "rubles", "st_hand": "hand", "st_total": "total",
        "st_left": "rubles left", "st_ties": ", which break ties",
        "st_legend": "points: on the track; nobles: their bonus (distinct cards); rubles: converted to points "
                     "(rubles held); hand: the penalty (cards held); rubles left after converting{ties}",
        "seed": "Seed {seed}: spb play --seed {seed} deals this game again.", "record": "Record written to {record}",
    },
    {"ruble": ("ruble", "rubles"), "point": ("point", "points"), "card": ("card", "cards")},
    "and",
)

GERMAN = Words(
    "de",
    {
        "round": "Runde {round}{last}, {phase}: ", "last_round": " (letzte Runde)", "to_move": "{name} ist am Zug",
        "hand": "Deine Hand ({size}/{limit}): {hand}", "empty": "leer", "since": "Seit deinem letzten Zug: {moves}",
        "your_moves": "Deine Züge: ", "only_pass": "Du kannst nur passen: Enter passt.",
        "type": "Gib einen Zug ein, oder help, hint, moves, board, log, undo, save, quit.",
        "board": "Spielbrett: Preise für {name}", "col_row": "Reihe", "col_card": "Karte", "col_colour": "Farbe",
        "col_price": "Preis", "col_income": "Ertrag", "col_note": "Hinweis",
        "board_empty": "(das Spielbrett ist leer)", "discard_pile": "Ablagestapel ({cards}): {names}", "needs": "braucht {what}", "over": "überbaut {card}",
        "a_card_of": "Karte der Farbe {colour}", "or": "oder",
        "phases": "Phasen", "col_phase": "Phase", "col_deck": "Stapel", "col_left": "Karten übrig",
        "col_starts": "beginnt", "you": "du", "on_turn": "am Zug", "secret_rubles": "? Rubel",
        "hand_size": "Hand {size}/{limit}", "starts": ", beginnt {phases}", "holds_disc": ", hat die Scheibe",
        "pays": "\n  erhält: ",
        "no_more": "(nicht mehr)", "nothing": "nichts", "at_the_end": "\n  am Spielende: {bonus}",
        "used": "\n  in dieser Runde genutzt: ", "lying": "\n  auf eine Karte gelegt: ", "nobles": "{deck} ({n} verschiedene)",
        "colour_cards": "Karten der Farbe {colour}", "end_bonus": "+{points} für {nobles}",
        "hand_penalty": ", -{penalty} für {cards} auf der Hand", "computer": " (Computer)",
        "new_game": "Neues Spiel von {ruleset}: {seats}", "resumed_game": "Fortgesetztes Spiel von {ruleset}: {seats}",
        "type_help": "help zeigt die Befehle und die Zugnotation.",
        "round_phase": "Runde {round}: {phase}", "handover": "Tastatur an {name} weitergeben",
        "only_look": "Nur {name} sollte jetzt auf den Bildschirm sehen.", "scores": "Wertung der {phase}:",
        "ran_out": "{decks} leer: Runde {round} ist die letzte Runde.",
        "bought": "{name} kauft {points} für {rubles} mit {card}",
        "counted": "{n} {cards} der Farbe {colour}",
        "discarded": "{cards} der unteren Reihe abgelegt{names}", "moved": "{cards} aus der oberen Reihe nach unten",
        "round_end": "Ende der Runde {round}: {discarded}; {moved}.",
        "next_round": "Nächste Runde: {starters}.",
        "legal_moves": "Erlaubte Züge von {name}", "col_move": "Zug", "col_cost": "Kosten",
        "stopped": "Beendet ({reason}): das Spiel wurde nicht zu Ende gespielt ({context}).",
        "record_so_far": "Die Züge bis jetzt stehen in {record} (ohne den Seed, bis ein Spiel zu Ende ist)",
        "saved_to_continue": "Spiel gespeichert nach {path}; spb play --load {path} setzt es fort{secret}",
        "saved_secret": " (sie enthält jede Hand und die Reihenfolge der Stapel: bis zum Spielende geschlossen halten)",
        "log_title": "Das Spiel bis jetzt", "log_cut": "… (davor: log zeigt alles)", "log_empty": "(noch keine Züge)",
        "standings": "Endstand", "st_rank": "Platz", "st_player": "Spieler", "st_points": "Punkte",
        "st_nobles": "Adelige", "st_rubles": "Rubel", "st_hand": "Hand", "st_total": "Summe",
        "st_left": "Rubel übrig", "st_ties": ", die bei Gleichstand entscheiden",
        "st_legend": "Punkte: auf der Leiste; Adelige: ihr Bonus (verschiedene Karten); Rubel: in Punkte "
                     "getauscht (gehaltene Rubel); Hand: der Abzug (gehaltene Karten); Rubel übrig nach dem "
                     "Tausch{ties}",
        "seed": "Seed {seed}: spb play --seed {seed} teilt dieses Spiel noch einmal aus.",
        "record": "Spielprotokoll geschrieben nach {record}",
    },
    {"ruble": ("Rubel", "Rubel"), "point": ("Punkt", "Punkte"), "card": ("Karte", "Karten")},
    "und",
    {"upper": "oben", "lower": "unten", "drawn": "gezogen"},
    reasons={"quit": "quit", "end of input": "Ende der Eingabe", "interrupted": "unterbrochen"},
    session={
        "press_enter": "{name}, Enter zeigt deinen Bildschirm ",
        "leave": "Das Spiel unbeendet verlassen ({kept})? [y/N] ",
        "kept_record": "die Züge bis jetzt sind im Spielprotokoll",
        "kept_nothing": "nichts ist gespeichert, außer du hast save eingegeben",
        "barrier_drawn": "undo geht nicht hinter die mit {move} gezogene Karte zurück: sie zeigte Karten eines "
                         "Stapels ({drawn} gezogen)",
        "barrier_refill": "undo geht nicht hinter das aufgefüllte Spielbrett zurück: es zeigte Karten eines "
                          "Stapels ({drawn} gezogen)",
        "undo_others": "undo geht nur gegen Computer; {names} spielt hier auch",
        "undo_none": "du hast noch keinen Zug, den undo zurücknehmen könnte",
        "took_back": "zurückgenommen: {moves}",
        "no_hint": "kein Tipp: {error}",
        "hint_head": "ai:{level} würde spielen (Gewinnchance geschätzt aus {deals} Verteilungen und Partien in "
                     "{seconds} s):",
        "hint_line": "  {move}  Gewinnchance {win}  ({visits}-mal durchsucht)",
        "context": "{name}, Runde {round}, {phase}",
        "save_args": "save nimmt höchstens einen Dateinamen: save [DATEI]",
        "saved_record": " und die Züge bis jetzt nach {record}",
        "saved_secret": " (sie enthält jede Hand und die Reihenfolge der Stapel: bis zum Spielende geschlossen "
                        "halten)",
        "saved": "Spiel gespeichert nach {path}{extra}; spb play --load {path} setzt es fort{secret}",
        "help_moves": "Züge (auf Englisch; Kartennamen dürfen auf jeden eindeutigen Anfang gekürzt werden, in "
                      "jeder Schreibung; deutsche und chinesische Namen gehen auch):",
        "help_eg": "z. B.",
        "help_short": "Kurze Verben: {short}; jeder Anfang eines Verbs geht auch.",
        "help_legal": "Jetzt erlaubt, zum Beispiel: {examples}",
        "help_keys": "Am Terminal ergänzt Tab Züge und Befehle, Pfeil hoch und runter gehen durch das Eingegebene;\n"
                     "Enter allein passt, wenn du nur passen kannst.",
        "help_commands": "Befehle, oder ihre Anfänge: {prefixes}, ? (help)",
        "help_table": "  help          dieser Text\n"
                      "  hint          was ai:hard hier spielen würde, seine besten drei Züge mit ihren "
                      "Gewinnchancen\n"
                      "  moves         deine erlaubten Züge und was jeder kostet\n"
                      "  board         das ganze Spielbrett, die Phasen und Karten und Erträge aller Spieler\n"
                      "  log           die Züge und Wertungen bis jetzt (was alle gesehen haben)\n"
                      "  undo          deinen letzten Zug zurücknehmen (nur gegen Computer, und nicht hinter\n"
                      "                ein Auffüllen oder eine Fähigkeit zurück, die Karten von einem Stapel zog)\n"
                      "  save [DATEI]  das Spiel in DATEI schreiben; spb play --load DATEI setzt es fort\n"
                      "  quit          das Spiel unbeendet verlassen",
    },
)


CHINESE = Words(
    "zh",
    {
        "round": "第{round}輪{last}，{phase}：", "last_round": "（最後一輪）", "to_move": "輪到{name}",
        "hand": "你的手牌（{size}/{limit}）：{hand}", "empty": "無", "since": "你上一步之後：{moves}",
        "your_moves": "你的走法：", "only_pass": "你只能跳過：按 Enter 跳過。",
        "type": "輸入走法，或 help、hint、moves、board、log、undo、save、quit。",
        "board": "牌面：{name}的價格", "col_row": "列", "col_card": "卡牌", "col_colour": "顏色",
        "col_price": "價格", "col_income": "收入", "col_note": "備註", "board_empty": "（牌面是空的）", "discard_pile": "棄牌堆（{cards}）：{names}",
        "needs": "需要{what}", "over": "取代{card}", "a_card_of": "一張{colour}卡", "or": "或",
        "phases": "階段", "col_phase": "階段", "col_deck": "牌庫", "col_left": "剩餘卡牌", "col_starts": "起始玩家",
        "you": "你", "on_turn": "輪到", "secret_rubles": "?盧布", "hand_size": "手牌{size}/{limit}",
        "starts": "，起始：{phases}", "holds_disc": "，持有圓盤", "pays": "\n  收入：", "no_more": "（不再計分）",
        "nothing": "無", "at_the_end": "\n  遊戲結束時：{bonus}", "used": "\n  本輪已用：", "lying": "\n  放在卡上：",
        "nobles": "{deck}（{n}種不同）", "colour_cards": "{colour}卡",
        "end_bonus": "{nobles}+{points}", "hand_penalty": "，手上{cards}-{penalty}",
        "computer": "（電腦）", "new_game": "新遊戲 {ruleset}：{seats}", "resumed_game": "繼續遊戲 {ruleset}：{seats}",
        "type_help": "輸入 help 查看指令與走法記號。", "round_phase": "第{round}輪：{phase}",
        "handover": "把鍵盤交給{name}", "only_look": "現在只有{name}可以看螢幕。",
        "scores": "{phase}計分：", "ran_out": "{decks}已用完：第{round}輪是最後一輪。",
        "bought": "{name}用{card}以{rubles}買了{points}",
        "counted": "{n}張{colour}卡",
        "discarded": "下排棄掉{cards}{names}", "moved": "上排移下{cards}",
        "round_end": "第{round}輪結束：{discarded}；{moved}。", "next_round": "下一輪起始：{starters}。",
        "legal_moves": "{name}的合法走法", "col_move": "走法", "col_cost": "費用",
        "stopped": "已停止（{reason}）：遊戲未完成（{context}）。",
        "record_so_far": "目前的走法已寫入 {record}（遊戲結束前不含種子）",
        "saved_to_continue": "遊戲已保存到 {path}；用 spb play --load {path} 繼續{secret}",
        "saved_secret": "（檔案含有每人的手牌與牌庫順序：遊戲結束前不要打開）",
        "log_title": "目前為止的遊戲", "log_cut": "……（更早的：輸入 log）", "log_empty": "（還沒有走法）",
        "standings": "最終排名", "st_rank": "名次", "st_player": "玩家", "st_points": "分數",
        "st_nobles": "貴族", "st_rubles": "盧布", "st_hand": "手牌", "st_total": "總分",
        "st_left": "剩餘盧布", "st_ties": "，用於決定平手",
        "st_legend": "分數：計分軌上的分數；貴族：貴族獎勵（不同的卡）；盧布：換成的分數（持有的盧布）；"
                     "手牌：罰分（持有的卡）；剩餘盧布：換分之後剩下的{ties}",
        "seed": "種子 {seed}：spb play --seed {seed} 會再發出這局牌。", "record": "遊戲記錄已寫入 {record}",
    },
    {"ruble": ("盧布", "盧布"), "point": ("分", "分"), "card": ("張卡", "張卡")},
    "和",
    {"upper": "上排", "lower": "下排", "drawn": "抽到"},
    reasons={"quit": "quit", "end of input": "輸入結束", "interrupted": "中斷"},
    session={
        "press_enter": "{name}，按 Enter 查看你的畫面 ",
        "leave": "離開未完成的遊戲（{kept}）？[y/N] ",
        "kept_record": "目前的走法已寫入記錄",
        "kept_nothing": "除非你輸入過 save，否則不會保存",
        "barrier_drawn": "undo 不能退回到用 {move} 抽到的卡之前：它翻開了牌庫的卡（抽了{drawn}張）",
        "barrier_refill": "undo 不能退回到補牌之前：它翻開了牌庫的卡（抽了{drawn}張）",
        "undo_others": "undo 只能在對電腦時使用；{names}也在這裡玩",
        "undo_none": "你還沒有可以 undo 的走法",
        "took_back": "已收回：{moves}",
        "no_hint": "沒有提示：{error}",
        "hint_head": "ai:{level} 會這樣走（勝率由 {deals} 次發牌與模擬對局估計，用時 {seconds} 秒）：",
        "hint_line": "  {move}  勝率 {win}  （搜尋 {visits} 次）",
        "context": "{name}，第{round}輪，{phase}",
        "save_args": "save 最多接受一個檔名：save [檔案]",
        "saved_record": "，目前的走法寫入 {record}",
        "saved_secret": "（檔案含有每人的手牌與牌庫順序：遊戲結束前不要打開）",
        "saved": "遊戲已保存到 {path}{extra}；用 spb play --load {path} 繼續{secret}",
        "help_moves": "走法（記號用英文；卡名可縮寫成任何唯一的開頭，不分大小寫；德文與中文卡名也可以）：",
        "help_eg": "例如",
        "help_short": "簡短動詞：{short}；任何動詞的開頭也可以。",
        "help_legal": "現在合法的走法，例如：{examples}",
        "help_keys": "在終端機上 Tab 補全走法與指令，上下鍵瀏覽你輸入過的內容；\n"
                     "只能跳過時，直接按 Enter 就跳過。",
        "help_commands": "指令，或其開頭：{prefixes}、?（help）",
        "help_table": "  help          本說明\n"
                      "  hint          ai:hard 在這裡會怎麼走：它最好的三個走法與各自的勝率\n"
                      "  moves         你的合法走法與各自的費用\n"
                      "  board         整個牌面、各階段與每位玩家的卡牌和收入\n"
                      "  log           目前為止的走法與計分（大家都看到的）\n"
                      "  undo          收回你上一步（只限對電腦，且不能退回到補牌\n"
                      "                或從牌庫抽卡的能力之前）\n"
                      "  save [檔案]   把遊戲寫入檔案；spb play --load 檔案 可繼續\n"
                      "  quit          離開未完成的遊戲",
    },
    number="{n}{noun}",
)

#: The screen's languages by code.
LANGUAGES = {"en": ENGLISH, "de": GERMAN, "zh": CHINESE}
