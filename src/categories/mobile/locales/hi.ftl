# The mobile category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
mobile-ask-number = 📱 कौन सा मोबाइल नंबर रिचार्ज करना है? (10 अंक, NTC)
mobile-ncell = यह Ncell नंबर है। Ncell के लिए डेटा पैक लीजिए: /recharge भेजकर "डेटा पैक" चुनिए।
mobile-detected = ✓ { $operator } (पहचाना गया)
mobile-ask-operator = { $number } का ऑपरेटर:
mobile-ask-amount = कितना? { $min } से { $max } तक की राशि लिखिए, या चुनिए:
mobile-operator-mismatch = { $number } { $operator } का नंबर नहीं है: वे { $prefixes } से शुरू होते हैं। यह { $detected } जैसा दिखता है (✓ लगा हुआ)। कौन सा ऑपरेटर है?
mobile-ask-amount-for = 📱 { $number } · { $operator }
    { mobile-ask-amount }
mobile-line-not-offered = { $number } { $operator } का नंबर है, और { $operator } अभी रिचार्ज नहीं हो सकता। कोई दूसरा नंबर भेजिए, या बाद में फिर कोशिश कीजिए।
