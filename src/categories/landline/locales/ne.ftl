# The landline category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
landline-ask-operator = ☎️ कुन लाइन रिचार्ज गर्ने?
landline-ask-number = ☎️ कुन { $operator } नम्बर? सुरुको 0 बिना 9 अङ्क टाइप गर्नुहोस्।
landline-ask-amount = कति? { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्, वा छान्नुहोस्:
