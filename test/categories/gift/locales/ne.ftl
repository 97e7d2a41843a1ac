menu-gift = 🎁 Gift recharge
gift-ask-number = Which number gets the gift?
gift-number-invalid = That is not a mobile number.
gift-ask-amount = Which gift?
gift-confirm-line = A gift recharge
