# The internet category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
internet-ask-isp = 🌐 Which internet provider?
internet-ask-username = Your { $operator } username (customer id):
internet-username-rejected = The provider answered: "{ $message }"
    Please check the username and send it again.
internet-no-packages = { $operator } has no packages for this username right now. Please choose the provider again.
internet-ask-package = { $operator } packages for { $username } ({ $count }). Choose one:
internet-package = { $name } · { $amount }
internet-invalid-username = A username has only letters, digits and . _ - / @ (no spaces).
