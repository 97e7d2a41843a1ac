# The dth category's own strings, loaded through its module's localesDir (shared strings: locales/en.ftl).
dth-ask-operator = 📺 Which TV (DTH) operator?
dth-ask-customer = Your { $operator } customer id (on the bill or the set-top box screen):
dth-customer-rejected = The operator answered: "{ $message }"
    Please check the customer id and send it again.
dth-customer-info = { $operator } subscriber { $id }:
    { $info }
dth-no-packages = { $operator } offers no packages for this customer right now. Please choose the operator again.
dth-ask-package = Choose a package ({ $count }):
dth-package = { $name } · { $amount }
dth-invalid-customer = A customer id has only letters, digits and . _ - / @ (no spaces).
