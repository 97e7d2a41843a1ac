# मुख्य पाठहरू। प्रत्येक प्रक्रियाका पाठहरू तल तिनको उपसर्गसहित छन्।

start-welcome = नमस्ते { $name }! म नेपाल र भारतमा मोबाइल, डाटा प्याक, टिभी, इन्टरनेट, ल्यान्डलाइन, खानेपानी र बिजुलीको बिल तिर्न सहयोग गर्छु।
    के तिर्ने हो छान्नुहोस्, वा /help पठाउनुहोस्।
help-text = म यी काम गर्न सक्छु:
    /recharge – रिचार्ज वा बिल भुक्तानी
    /status – सन्दर्भ नम्बरले अर्डर जाँच्नुहोस्
    /history – तपाईंका पछिल्ला अर्डरहरू, "फेरि" सहित
    /language – भाषा बदल्नुहोस्
    /cancel – चलिरहेको काम रोक्नुहोस्
    अर्डर सफल वा असफल हुँदा तपाईंलाई सन्देश आउँछ।
help-agent = एजेन्टको रूपमा तपाईं /status ले जुनसुकै अर्डर हेर्न सक्नुहुन्छ।
help-admin = एडमिनको रूपमा तपाईं /balance ले वालेट हेर्न सक्नुहुन्छ।
cmd-start = सुरु
cmd-recharge = रिचार्ज वा बिल भुक्तानी
cmd-status = अर्डर जाँच
cmd-history = मेरा पछिल्ला अर्डर
cmd-language = भाषा बदल्नुहोस्
cmd-help = सहायता
cmd-cancel = रद्द
cmd-balance = वालेट ब्यालेन्स (एडमिन)

menu-prompt = के तिर्न चाहनुहुन्छ?
menu-mobile = 📱 मोबाइल टप-अप
menu-datapack = 📶 डाटा प्याक
menu-dth = 📺 टिभी (DTH)
menu-internet = 🌐 इन्टरनेट
menu-landline = ☎️ ल्यान्डलाइन
menu-water = 🚰 खानेपानी बिल
menu-electricity = 💡 बिजुली बिल
menu-india = 🇮🇳 भारत रिचार्ज

language-name = नेपाली
language-prompt = आफ्नो भाषा छान्नुहोस्:
language-set = भाषा नेपाली राखियो।

common-cancel = ✖ रद्द
common-confirm = ✅ पुष्टि
common-back = ‹ पछाडि
common-prev = ‹
common-next = ›
common-page = { $page }/{ $pages }
common-cancelled = रद्द गरियो। कुनै रकम काटिएन। फेरि सुरु गर्न /recharge पठाउनुहोस्।
common-nothing-to-cancel = रद्द गर्नुपर्ने केही छैन।
common-idle-ended = { $minutes } मिनेटसम्म जवाफ नआएकाले अघिल्लो अनुरोध बन्द भयो। कुनै रकम काटिएन। फेरि सुरु गर्न /recharge पठाउनुहोस्।
common-send-text = कृपया पाठ सन्देशमा जवाफ दिनुहोस् वा बटन प्रयोग गर्नुहोस्।
common-slow-down = तपाईं धेरै छिटो सन्देश पठाउँदै हुनुहुन्छ। केही सेकेन्ड पर्खनुहोस्; यस बीचका सन्देशहरू बेवास्ता गरिन्छन्।
common-use-buttons = कृपया कुनै एउटा बटन छान्नुहोस्।
common-button-expired = यो बटन अब सक्रिय छैन।
common-try-again = कृपया फेरि प्रयास गर्नुहोस्:
common-search-hint = खोज्न नामको केही भाग टाइप गर्न पनि सक्नुहुन्छ।
common-search-none = "{ $query }" सँग केही मिलेन। नामको अर्को भाग प्रयास गर्नुहोस्।
common-search-results = "{ $query }" सँग मिल्ने:
flow-leave-question = यो अर्डर छोड्ने? अहिलेसम्म भरेको विवरण हराउनेछ।
flow-keep = ↩ जारी राख्ने
flow-leave = 🚪 छोड्ने
flow-left = अर्डर छोडियो। कुनै रकम काटिएन।
common-private-only = तपाईंको सुरक्षाका लागि अर्डर मसँगको निजी च्याटमा मात्र लिइन्छ।
common-unknown-input = मैले बुझिनँ। केही तिर्न /recharge वा सहायताका लागि /help पठाउनुहोस्।
common-lookup-failed = रिचार्ज सेवाले अहिले जवाफ दिइरहेको छैन। तपाईंका जवाफहरू सुरक्षित छन्; "फेरि प्रयास" थिच्नुहोस् वा एक मिनेटपछि प्रयास गर्नुहोस्।
common-retry = 🔄 फेरि प्रयास
common-error = हाम्रो तर्फबाट केही गडबड भयो। फेरि प्रयास गर्नुअघि कृपया /history मा तपाईंको अर्डर भयो कि भएन हेर्नुहोस्।

err-empty = कृपया मान टाइप गर्नुहोस्।
err-not-digits = कृपया अङ्क मात्र प्रयोग गर्नुहोस्।
err-length = यसमा { $actual } अङ्क छन्; ठ्याक्कै { $expected } चाहिन्छ।
err-leading-zero = नम्बर 0 बाट सुरु हुनु हुँदैन।
err-trunk-zero = कृपया सुरुको 0 हटाउनुहोस्: नम्बर त्यसपछिका { $expected } अङ्क हो, र तपाईंले 0 पछि { $actual } अङ्क लेख्नुभयो।
err-india-prefix = भारतको मोबाइल नम्बर ६, ७, ८ वा ९ बाट सुरु हुन्छ।
err-phone-mobile-length = यो फोन नम्बर होइन: यो मोबाइलजस्तै ९ बाट सुरु हुन्छ तर यसमा { $actual } अङ्क छन्, मोबाइल नम्बरमा १० अङ्क हुन्छन्। (ल्यान्डलाइनमा ७ देखि ९ अङ्क हुन्छन् र ९ बाट सुरु हुँदैन।)
err-phone-landline-length = यो फोन नम्बर होइन: यसमा (सुरुको 0 बाहेक) { $actual } अङ्क छन्, ल्यान्डलाइनमा ७ देखि ९ अङ्क हुन्छन्। (मोबाइलमा ९ बाट सुरु हुने १० अङ्क हुन्छन्।)
err-prefix = यो नम्बर यो अपरेटरको होइन। यो { $allowed } बाट सुरु हुनुपर्छ।
err-retired-operator = यो नम्बर स्मार्टसेलको हो, जुन अब सञ्चालनमा छैन।
err-amount-format = कृपया रुपैयाँमा रकम टाइप गर्नुहोस्, जस्तै 100 वा 250.50।
err-amount-grouping = अल्पविराम (,) अङ्कका समूहबीच मात्र आउँछ, जस्तै 1,000 वा 1,00,000; पैसा थोप्लोपछि लेखिन्छ, जस्तै 250.50। कृपया रकम फेरि टाइप गर्नुहोस्।
err-amount-below = सबैभन्दा सानो रकम { $min } हो।
err-amount-above = सबैभन्दा ठूलो रकम { $max } हो।
err-month-range = कृपया बटनबाट महिना छान्नुहोस्।
err-too-long = यो धेरै लामो भयो (बढीमा { $max } अक्षर)।

confirm-title = कृपया आफ्नो अर्डर जाँच्नुहोस्:
confirm-operator = अपरेटर: { $operator }
confirm-number = नम्बर / खाता: { $number }
confirm-package = प्याकेज: { $package }
confirm-amount = रकम: { $amount }
confirm-fees = सेवा शुल्क: { $fee }
confirm-fee = शुल्क: { $fee }
confirm-discount = छुट: −{ $discount }
confirm-total = जम्मा तिर्नुपर्ने: { $total }
confirm-balance-after = पछिको मौज्दात: { $balance }
balance-short = तपाईंको मौज्दात { $balance } छ र यो अर्डरको मूल्य { $total } हो: { $shortfall } नपुग। कृपया मौज्दातमा पैसा थप्नुहोस् (एजेन्टले थपिदिन सक्छन्) र फेरि प्रयास गर्नुहोस्।
confirm-question = अहिले तिर्ने?

limit-daily-cap = तपाईंले आजको { $cap } को सीमा पुर्‍याउनुभयो। कृपया भोलि प्रयास गर्नुहोस्।
limit-rate = तपाईंले पछिल्लो एक घण्टामा धेरै अर्डर गर्नुभयो। अर्को अर्डरअघि केही समय पर्खनुहोस्।

receipt-processing = 🧾 अर्डर { $ref }
    { $operator } · { $number }
    रकम: { $amount }
    अवस्था: ⏳ प्रक्रियामा
receipt-status = 🧾 अर्डर { $ref }
    { $operator } · { $number }
    रकम: { $amount }
    अवस्था: { $status }
receipt-already = यो अर्डर पहिले नै गरिएको छ: सन्दर्भ { $ref }।
order-checking = ⚠️ अर्डर { $ref } प्रक्रिया गर्दा हाम्रो तर्फबाट केही गडबड भयो। हामी अपरेटरसँग यसको जाँच गर्दैछौं र नतिजाको सन्देश पठाउनेछौं। कृपया यसबीच फेरि अर्डर नगर्नुहोस्; /status ले स्थिति देखाउँछ।

status-placed = ⏳ प्राप्त भयो
status-submitting = ⏳ प्रक्रियामा
status-queued = ⏳ लाइनमा
status-pending = ⏳ बाँकी
receipt-will-follow = अपरेटरले जवाफ दिनासाथ हामी तपाईंलाई सन्देश पठाउनेछौं, प्रायः केही मिनेटभित्र।
status-unknown = ⏳ अपरेटरसँग जाँच हुँदै
status-success = ✅ सफल
status-failed = ❌ असफल

notify-success = ✅ अर्डर { $ref } सफल भयो।
    { $operator } · { $number } · { $amount }
notify-failed = ❌ अर्डर { $ref } असफल भयो। कुनै रकम काटिएन।
    { $operator } · { $number } · { $amount }
    कारण: { $reason }
notify-admin-stuck = ⚠️ अर्डर { $ref } ({ $operator }, { $amount }) { $minutes } मिनेटपछि पनि टुंगिएको छैन। कृपया प्रदायकसँग जाँच्नुहोस्।
notify-reason-unknown = अपरेटरले यो पूरा गरेन

status-prompt = अर्डरको सन्दर्भ नम्बर (वा कारोबार आईडी) पठाउनुहोस्।
status-not-found = त्यो नम्बरको कुनै अर्डर भेटिएन।
status-not-yours = त्यो नम्बरको कुनै अर्डर भेटिएन।
status-result = 🧾 अर्डर { $ref }
    { $operator } · { $number }
    रकम: { $amount }
    अवस्था: { $status }
    समय: { $time }
status-provider-result = प्रदायकका अनुसार: अर्डर { $ref }, { $operator } · { $number }, { $amount }, अवस्था: { $status }
status-invalid = सन्दर्भ नम्बरमा अङ्क मात्र हुन्छन्।

history-empty = तपाईंको कुनै अर्डर छैन। अर्डर गर्न /recharge पठाउनुहोस्।
history-title = तपाईंका पछिल्ला अर्डरहरू:
history-title-page = तपाईंका पछिल्ला अर्डरहरू (पृष्ठ { $page }):
history-item =
    { $time } · { $category }
    { $operator } · { $number } · { $amount } · { $status }
history-repeat = 🔁 फेरि { $number } · { $amount }
history-prev = ⬅️ अघिल्लो
history-next = अर्को ➡️

balance-result = वालेट ब्यालेन्स: { $amount }
balance-denied = यो आदेश एडमिनका लागि मात्र हो।

# mobile
mobile-ask-number = 📱 कुन मोबाइल नम्बर रिचार्ज गर्ने? (१० अङ्क, NTC)
mobile-ncell = यो एनसेल नम्बर हो। एनसेलका लागि डाटा प्याक किन्नुहोस्: /recharge पठाएर "डाटा प्याक" छान्नुहोस्।
mobile-detected = ✓ { $operator } (पहिचान भयो)
mobile-ask-operator = { $number } को अपरेटर:
mobile-ask-amount = कति? { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्, वा छान्नुहोस्:

# datapack
datapack-ask-number = 📶 कुन मोबाइल नम्बरका लागि प्याक? (१० अङ्क, एनसेल वा NTC)
datapack-family-ncell = एनसेल
datapack-family-ntc = NTC
datapack-ask-product = { $number } { $family } नम्बर हो। कस्तो प्याक चाहियो?
datapack-product-data = 📶 डाटा
datapack-product-voice = 📞 भ्वाइस (कल)
datapack-product-sms = ✉️ एसएमएस
datapack-product-roaming = ✈️ रोमिङ
datapack-product-special = ⭐ सधैं अन
datapack-product-recommended = 👍 सिफारिस गरिएका
datapack-ask-package = { $number } का लागि { $operator } प्याकहरू ({ $count })। एउटा छान्नुहोस्:
datapack-package = { $name } · { $amount }
datapack-no-packages = { $operator } मा अहिले यो नम्बरका लागि कुनै प्याक छैन। कृपया अर्को प्रकारको प्याक छान्नुहोस्।
datapack-list-rejected = प्याकहरू ल्याउन सकिएन: { $message }
    कृपया अर्को प्रकारको प्याक छान्नुहोस् वा फेरि प्रयास गर्नुहोस्।

# dth
dth-ask-operator = 📺 कुन टिभी (DTH) अपरेटर?
dth-ask-customer = तपाईंको { $operator } ग्राहक आईडी (बिलमा वा सेट-टप बक्सको स्क्रिनमा हुन्छ):
dth-customer-rejected = अपरेटरको जवाफ: "{ $message }"
    कृपया ग्राहक आईडी जाँचेर फेरि पठाउनुहोस्।
dth-customer-info = { $operator } ग्राहक { $id }:
    { $info }
dth-no-packages = { $operator } मा अहिले यो ग्राहकका लागि कुनै प्याकेज छैन। कृपया फेरि अपरेटर छान्नुहोस्।
dth-ask-package = प्याकेज छान्नुहोस् ({ $count }):
dth-package = { $name } · { $amount }

# internet
internet-ask-isp = 🌐 कुन इन्टरनेट सेवा प्रदायक?
internet-ask-username = तपाईंको { $operator } युजरनेम (ग्राहक आईडी):
internet-username-rejected = सेवा प्रदायकको जवाफ: "{ $message }"
    कृपया युजरनेम जाँचेर फेरि पठाउनुहोस्।
internet-no-packages = { $operator } मा अहिले यो युजरनेमका लागि कुनै प्याकेज छैन। कृपया फेरि सेवा प्रदायक छान्नुहोस्।
internet-ask-package = { $username } का लागि { $operator } प्याकेजहरू ({ $count })। एउटा छान्नुहोस्:
internet-package = { $name } · { $amount }

# status, history, repeat, balance
status-transaction = कारोबार आईडी: { $tx }
status-reason = कारण: { $reason }
status-customer = ग्राहक (टेलिग्राम आईडी): { $user }
status-wallet = वालेट: { $debit } काटियो (सेवा शुल्क { $fee }), बाँकी ब्यालेन्स: { $balance }
balance-unavailable = रिचार्ज सेवाले अहिले जवाफ दिइरहेको छैन। कृपया एक मिनेटपछि फेरि प्रयास गर्नुहोस्।
repeat-intro = 🔁 अर्डर { $ref } फेरि गर्दै।
repeat-unavailable = यो अर्डर अब फेरि गर्न मिल्दैन। नयाँ अर्डरका लागि /recharge पठाउनुहोस्।
repeat-package-gone = "{ $package }" प्याकेज { $number } का लागि अब उपलब्ध छैन। अर्को छान्न /recharge पठाउनुहोस्।
repeat-lookup-failed = यो अर्डर फेरि गर्न सकिनँ: { $message }
    फेरि सुरु गर्न /recharge पठाउनुहोस्।
repeat-nothing-due = यो बिलमा अहिले तिर्न बाँकी केही छैन। अग्रिम तिर्न चाहनुहुन्छ भने /recharge पठाउनुहोस्।
repeat-bill-under-way = यो बिलको भुक्तानी (अर्डर { $ref }) अझै प्रक्रियामा छ, त्यसैले अहिले फेरि तिर्दिनँ। यसको नतिजा सन्देशमा आउनेछ; त्यसपछि /history हेर्नुहोस्।
repeat-bill = { $name } को बिल: अहिले { $amount } तिर्न बाँकी।

# landline
landline-ask-operator = ☎️ कुन लाइन रिचार्ज गर्ने?
landline-ask-number = ☎️ कुन { $operator } नम्बर? सुरुको ० बिना ९ अङ्क टाइप गर्नुहोस्।
landline-ask-amount = कति? { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्, वा छान्नुहोस्:

# bill (shared by the water and electricity flows)
bill-offices-failed = कार्यालयहरूको सूची ल्याउन सकिएन ({ $reason })। कुनै रकम काटिएको छैन। केही बेरपछि /recharge पठाएर फेरि प्रयास गर्नुहोस्।
bill-account-invalid = अक्षर, अङ्क र . - _ / मात्र प्रयोग गर्नुहोस् (खाली ठाउँ नराख्नुहोस्)।
bill-month-1 = बैशाख
bill-month-2 = जेठ
bill-month-3 = असार
bill-month-4 = साउन
bill-month-5 = भदौ
bill-month-6 = असोज
bill-month-7 = कात्तिक
bill-month-8 = मंसिर
bill-month-9 = पुस
bill-month-10 = माघ
bill-month-11 = फागुन
bill-month-12 = चैत
bill-field-previous = अघिल्लो बक्यौता { $amount }
bill-field-current = यो महिना { $amount }
bill-field-amount = बिल { $amount }
bill-field-fine = जरिवाना { $amount }
bill-field-penalty = विलम्ब शुल्क { $amount }
bill-field-discount = छुट { $amount }
bill-field-total = जम्मा { $amount }
bill-field-payable = तिर्नुपर्ने { $amount }
bill-row = • { $heading }: { $details }
bill-address = ठेगाना: { $address }
bill-total = जम्मा बक्यौता: { $amount }
bill-nothing-due = अहिले यो खातामा कुनै बक्यौता छैन।
bill-ask-amount = { $due } बक्यौता तिर्नुहोस्, वा अर्को रकम ({ $max } सम्म) टाइप गर्नुहोस्, जस्तै अग्रिम भुक्तानीका लागि:
bill-pay-due = 💳 बक्यौता { $amount } तिर्ने
bill-ask-advance = तपाईं अग्रिम भुक्तानी गर्न सक्नुहुन्छ: { $max } सम्मको रकम टाइप गर्नुहोस्।
bill-confirm-office = कार्यालय: { $office }
bill-confirm-customer = ग्राहक: { $name }
bill-confirm-due = बिलको बक्यौता: { $amount }

# water
water-ask-operator = 🚰 कुन खानेपानी सेवा प्रदायक?
water-ask-office = 🚰 { $operator }: तपाईंको धारा कुन कार्यालय अन्तर्गत छ?
water-ask-customer = { $office } मा तपाईंको ग्राहक नम्बर (पानीको बिलमा लेखिएको):
water-ask-month = कुन महिनाको?
water-bill-rejected = खानेपानी कार्यालयले यो बिल जाँच्न सकेन: { $reason }
    कृपया ग्राहक नम्बर जाँच्नुहोस्।
water-bill-title = 🚰 { $name } को पानीको बिल ({ $month })
water-confirm-month = महिना: { $month }

# electricity
electricity-ask-operator = 💡 कुन विद्युत सेवा प्रदायक?
electricity-ask-office = 💡 { $operator }: तपाईंको मिटर कुन वितरण केन्द्र (कार्यालय) अन्तर्गत छ?
electricity-ask-sc = { $office } मा तपाईंको SC नम्बर (सर्भिस कनेक्सन नम्बर, बिलमा छ):
electricity-ask-customer = तपाईंको ग्राहक आईडी (बिलमा छ):
electricity-ask-phone = यो बिलका लागि फोन नम्बर: मोबाइल (९ बाट सुरु हुने १० अङ्क) वा ल्यान्डलाइन (क्षेत्र कोडसहित ७ देखि ९ अङ्क)।
electricity-phone-invalid = यो फोन नम्बर होइन: मोबाइलमा ९ बाट सुरु हुने १० अङ्क हुन्छन्; ल्यान्डलाइनमा (सुरुको 0 बाहेक) ७ देखि ९ अङ्क हुन्छन् र ९ बाट सुरु हुँदैन।
electricity-bill-rejected = विद्युत कार्यालयले यो बिल जाँच्न सकेन: { $reason }
    कृपया SC नम्बर र ग्राहक आईडी जाँच्नुहोस्।
electricity-bill-title = 💡 { $name } को बिजुलीको बिल (SC { $sc })
electricity-confirm-sc = SC नम्बर: { $sc }
electricity-confirm-phone = फोन: { $phone }

# india
india-circles-failed = सर्कलहरूको सूची ल्याउन सकिएन ({ $reason })। कुनै रकम काटिएको छैन। केही बेरपछि /recharge पठाएर फेरि प्रयास गर्नुहोस्।
india-ask-circle = 🇮🇳 कनेक्सन कुन टेलिकम सर्कल (राज्य) मा छ?
india-ask-kind = सर्कल: { $circle }। के रिचार्ज गर्ने?
india-kind-prepaid = 📱 प्रिपेड मोबाइल
india-kind-postpaid = 🧾 पोस्टपेड मोबाइल
india-kind-dth = 📡 DTH (टिभी)
india-ask-operator = { $kind }: कुन अपरेटर?
india-ask-number = कुन { $operator } नम्बर? (१० अङ्क; +91 राख्न मिल्छ)
india-ask-dth-id = तपाईंको { $operator } सब्सक्राइबर आईडी (१० अङ्क) वा दर्ता गरिएको मोबाइल नम्बर:
india-plan = { $amount } · { $details }
india-ask-plan = { $number } का लागि प्लान छान्नुहोस्, वा { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्:
india-plans-unavailable = अहिले प्लानको सूची उपलब्ध छैन; तपाईं रकम टाइप गर्न सक्नुहुन्छ।
india-ask-amount = { $number } का लागि कति? { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्, वा छान्नुहोस्:
india-confirm-circle = सर्कल: { $circle }
dth-invalid-customer = ग्राहक आईडीमा अक्षर, अङ्क र . _ - / @ मात्र हुन्छन् (खाली ठाउँ हुँदैन)।
internet-invalid-username = युजरनेममा अक्षर, अङ्क र . _ - / @ मात्र हुन्छन् (खाली ठाउँ हुँदैन)।

# --- h-flows (issue 16: Back, Edit at the confirmation, operator mismatch, limits up front) ---
flow-edit-number = ✏️ नम्बर
flow-edit-amount = ✏️ रकम
flow-edit-package = ✏️ प्याकेज
flow-edit-customer = ✏️ ग्राहक आईडी
flow-edit-plan = ✏️ प्लान / रकम
mobile-operator-mismatch = { $number } { $operator } को नम्बर होइन: ती { $prefixes } बाट सुरु हुन्छन्। यो { $detected } जस्तो देखिन्छ (✓ लगाइएको)। कुन अपरेटर हो?
bill-due-over-limit = बक्यौता तपाईंले आज तिर्न सक्ने बाँकी रकम ({ $left }) भन्दा बढी छ: अहिले त्यसको केही भाग तिर्न सक्नुहुन्छ।
common-idle-ended-seconds = { $seconds } सेकेन्डसम्म जवाफ नआएकाले अघिल्लो अनुरोध बन्द भयो। कुनै रकम काटिएन।
common-start-again = 🔁 फेरि सुरु गर्ने
