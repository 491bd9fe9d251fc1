"""What Connect Four teaches a player from exact scores: an analysis of a position (`analysis`, its words and JSON
form in `report`), why it stands as it does (`explain`, and the one-sentence why of a hint in `brief`), a game's
review move by move (`review`) and drills from the positions before its mistakes (`drill`). These modules return
data and words; they never print.
"""
