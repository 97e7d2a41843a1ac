# The landline category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
landline-ask-operator = ☎️ कौन सी लाइन रिचार्ज करनी है?
landline-ask-number = ☎️ कौन सा { $operator } नंबर? शुरुआती 0 के बिना 9 अंक लिखिए।
landline-ask-amount = कितना? { $min } से { $max } तक की राशि लिखिए, या चुनिए:
