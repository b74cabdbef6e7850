/**
 * Per-language word lists from which the injection rules are compiled (see `injection.ts`): verbs
 * that drop instructions, qualifiers and nouns that name the instructions being dropped, phrasings
 * that redefine the assistant, verbs and objects of system-prompt extraction, and the names by which
 * a text addresses an AI.
 *
 * Notation, read by `compileEntry`: `|` separates alternatives, `_` stands for a space inside one
 * (so that this file never holds a phrase the rules would match), `*` lets any letters follow (a
 * stem), `,` may be left out, `§` is dropped (it keeps a one-word entry from matching itself
 * here), a slot `+` only keeps two slots apart in this file, a slot `…` is a gap of up to three
 * words (a few characters in Chinese and Japanese), and a slot ending in `?`
 * is optional. Entries are written in the language's
 * own script; diacritics, look-alike letters and case are folded the same way as the text.
 */

export interface Lexicon {
  lang: string;
  /** Chinese and Japanese: no spaces between words, so no word boundaries. */
  cjk?: boolean;
  /** Verbs (imperatives) that drop instructions: ignore, forget, disregard, override. */
  verbs: string;
  /** previous, above, earlier, system, your… (one to three of them precede or follow a noun). */
  qualifiers: string;
  /** instructions, rules, prompt, directives, guidelines. */
  nouns: string;
  /** Nouns that need no qualifier: "your instructions" written as one word, "system prompt". */
  strongNouns?: string;
  /** Redefinition phrasings (who the assistant now is, what it pretends to be, from when on). */
  redefine: readonly string[];
  /** Verbs asking to show or repeat something (imperative or request forms). */
  revealVerbs: string;
  /** The system prompt, hidden instructions, initial instructions. */
  promptObjects: string;
  /** Object before verb (Japanese, Korean, Hindi, Turkish): the reveal request reads object … verb. */
  objectFirst?: boolean;
}

export const LEXICONS: readonly Lexicon[] = [
  {
    lang: 'en',
    verbs: 'ignore|disregard|forget|override|bypass|discard|neglect|pay_no_attention_to|do_not_follow|don\'t_follow|stop_following|no_longer_follow|set_aside',
    qualifiers: 'previous|prior|above|earlier|preceding|former|original|initial|system|your|my|developer|safety|hidden|given|aforementioned|all_previous|all_prior|all_earlier|any_previous|any_prior',
    nouns: 'instruction|instructions|prompt|prompts|directive*|guideline*|rule|rules|guardrail*|restriction*|programming|constraint*|context|everything',
    redefine: [],
    revealVerbs: 'reveal|print|show|display|output|repeat|leak|dump|tell_me|give_me|share|write_out|spell_out',
    promptObjects: 'your_system_prompt|your_system_message|your_system_instructions|your_hidden_instructions|your_initial_instructions|your_original_instructions|your_full_system_prompt|your_entire_system_prompt|your_secret_instructions',
  },
  {
    lang: 'zh',
    cjk: true,
    verbs: '忽略|忽视|忽視|无视|無視|忘记|忘記|忘掉|不要理会|不要理會|不要遵守|不再遵守|不要遵循|停止遵循|覆盖|覆蓋|绕过|繞過|抛开|拋開|放弃|放棄|丢弃|丟棄',
    qualifiers: '之前|以前|先前|上面|上述|前面|此前|原来|原來|原始|初始|系统|系統|你的|所有|全部',
    nouns: '指令|指示|说明|說明|规则|規則|提示|提示词|提示詞|设定|設定|要求|命令|约束|約束|限制|规定|規定',
    redefine: [
      '你现在_是|你現在_是|你从现在起_是|你從現在起_是|从现在开始_你|從現在開始_你|从现在起_你|從現在起_你|从今以后_你|從今以後_你|你不再_是',
      '假装你是|假裝你是|假设你是|假設你是|扮演一个|扮演一個|你要扮演 … 没有限制|沒有限制|不受限制|无限制|無限制|越狱|越獄',
      '进入|進入|启用|啟用|切换到|切換到 … 开发者模式|開發者模式|越狱模式|越獄模式|无限制模式|無限制模式',
    ],
    revealVerbs: '显示|顯示|输出|輸出|打印|告诉我|告訴我|泄露|洩露|透露|重复|重複|展示|给我看|給我看|说出|說出|公开|公開',
    promptObjects: '你的系统提示|你的系統提示|你的系统指令|你的系統指令|你的初始指令|你的隐藏指令|你的隱藏指令|你的原始指令|你的系统消息|你的系統訊息|你的提示词|你的提示詞',
  },
  {
    lang: 'es',
    verbs: 'ignora|ignore|ignorad|ignoren|ignorar|olvida|olvide|olviden|olvidad|olvidar|omite|omita|descarta|descarte|desatiende|desobedece|anula|haz_caso_omiso_de|hagan_caso_omiso_de|pasa_por_alto|no_sigas|no_siga|deja_de_seguir',
    qualifiers: 'anterior|anteriores|previa|previas|previo|previos|de_arriba|del_sistema|de_sistema|original|originales|inicial|iniciales|tus|sus|que_te_dieron|que_recibiste|que_se_te_dieron|precedentes',
    nouns: 'instrucciones|instruccion|reglas|indicaciones|directivas|directrices|ordenes|prompt|restricciones|pautas|consignas',
    redefine: [
      'ahora_eres|ahora_tu_eres|ya_no_eres un|una|el|la|mi|libre|dan',
      'a_partir_de_ahora|desde_ahora|de_ahora_en_adelante tu? eres|seras|vas_a|debes|actuaras|responderas',
      'finge|fingi|imagina que_eres|ser|que_tu_eres',
      'actua|actuad|comportate como_si_fueras|como_si_no_tuvieras|como_un_asistente_sin|como_una_ia_sin',
      'modo_sin_restricciones|modo_sin_filtros|modo_jailbreak|modo_dan',
    ],
    revealVerbs: 'revela|muestra|muestrame|imprime|repite|dime|ensename|escribe|comparte|filtra',
    promptObjects: 'tu_prompt|tus_instrucciones|el_prompt_del_sistema|el_prompt_de_sistema|el_mensaje_del_sistema|las_instrucciones_del_sistema|las_instrucciones_iniciales|las_instrucciones_ocultas|las_instrucciones_originales|tu_prompt_del_sistema|tu_mensaje_del_sistema',
  },
  {
    lang: 'hi',
    objectFirst: true,
    verbs: 'अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल_जाओ|भूल_जाएं|भूल_जाइए|भूलो|ध्यान_न_दें|ध्यान_मत_दो|पालन_न_करें|पालन_मत_करो|अवहेलना|ignore|bhool_jao',
    qualifiers: 'पिछले|पिछली|पहले_के|पहले_की|पूर्व|ऊपर_के|ऊपर_दिए|ऊपर_दी|मूल|प्रारंभिक|सिस्टम|अपने|तुम्हारे|आपके|सभी|सारे|पुराने|pichhle|pichle',
    nouns: 'निर्देश*|नियम*|आदेश*|हिदायत*|प्रॉम्प्ट*|प्रोम्प्ट*|दिशानिर्देश*|instructions|nirdesh*',
    redefine: [
      'अब_से_तुम|अब_से_आप|तुम_अब_एक|आप_अब_एक|अब_तुम_एक|अब_आप_एक',
      'होने_का_नाटक|होने_का_दिखावा|की_तरह_व्यवहार_करो|की_तरह_व्यवहार_करें|की_तरह_बर्ताव_करो',
    ],
    revealVerbs: 'दिखाओ|दिखाएं|दिखाइए|बताओ|बताएं|बताइए|प्रकट_करो|प्रकट_करें|प्रिंट_करो|प्रिंट_करें|दोहराओ|दोहराएं|लीक_करो',
    promptObjects: 'सिस्टम_प्रॉम्प्ट*|सिस्टम_प्रोम्प्ट*|सिस्टम_संदेश*|सिस्टम_निर्देश*|छिपे_हुए_निर्देश*|प्रारंभिक_निर्देश*|मूल_निर्देश*',
  },
  {
    lang: 'ar',
    verbs: 'تجاهل|تجاهلي|تجاهلوا|انس|انسى|انسي|انسوا|لا_تتبع|لا_تلتزم_ب|تخط|تخطى|تجاوز|أهمل|ألغ',
    qualifiers: 'السابقة|السابق|الأولية|الأصلية|أعلاه|المذكورة_أعلاه|النظام|الخاصة_بك|المعطاة|القديمة',
    nouns: 'التعليمات|تعليمات|الأوامر|أوامر|القواعد|قواعد|الإرشادات|إرشادات|التوجيهات|توجيهات|القيود|قيود',
    strongNouns: 'تعليماتك|أوامرك|قواعدك|إرشاداتك|توجيهاتك|قيودك|تعليمات_النظام|موجه_النظام',
    redefine: [
      'أنت_الآن|من_الآن_فصاعدا|من_الآن_فصاعدًا،_أنت|من_الآن_فصاعدا_أنت|ابتداء_من_الآن|اعتبارا_من_الآن \\S',
      'تظاهر_بأنك|تظاهري_بأنك|تصرف_كأنك|تصرفي_كأنك|تصرف_كما_لو|تقمص_دور|العب_دور|لم_تعد_مساعدا',
    ],
    revealVerbs: 'اكشف|اكشفي|أظهر|اعرض|اطبع|كرر|أخبرني|قل_لي|شارك|انشر',
    promptObjects: 'موجه_النظام|تعليمات_النظام|رسالة_النظام|التعليمات_المخفية|التعليمات_الأولية|التعليمات_الأصلية|تعليماتك',
  },
  {
    lang: 'pt',
    verbs: 'ignore|ignora|ignorem|ignorar|esqueca|esquecam|esquece|esquecer|desconsidere|desconsidera|descarte|descarta|despreze|anule|nao_siga|nao_sigas|deixe_de_seguir|passe_por_cima_de',
    qualifiers: 'anterior|anteriores|previa|previas|previo|previos|acima|do_sistema|de_sistema|original|originais|inicial|iniciais|suas|seus|tuas|teus|que_recebeu|que_te_deram|que_lhe_foram_dadas',
    nouns: 'instrucoes|instrucao|regras|diretrizes|diretivas|orientacoes|prompt|restricoes|ordens|comandos',
    redefine: [
      'agora_voce_e|agora_tu_es|voce_agora_e|voce_nao_e_mais|tu_ja_nao_es um|uma|o|a|meu|minha|livre|dan',
      'a_partir_de_agora|de_agora_em_diante voce|tu? e|es|sera|vai|deve|respondera|agira',
      'finja|finge|imagine que_voce_e|que_tu_es|ser',
      'aja|atue|age|comporte-se como_se_fosse|como_se_nao_tivesse|como_um_assistente_sem|como_uma_ia_sem',
      'modo_sem_restricoes|modo_sem_filtros|modo_jailbreak|modo_dan',
    ],
    revealVerbs: 'revele|revela|mostre|mostra|mostre-me|imprima|repita|diga|diga-me|me_mostre|me_diga|exiba|compartilhe',
    promptObjects: 'seu_prompt|teu_prompt|suas_instrucoes|tuas_instrucoes|o_prompt_do_sistema|o_prompt_de_sistema|a_mensagem_do_sistema|as_instrucoes_do_sistema|as_instrucoes_iniciais|as_instrucoes_ocultas|as_instrucoes_originais|seu_prompt_de_sistema|seu_prompt_do_sistema',
  },
  {
    lang: 'ru',
    verbs: 'игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не_обращай_внимания_на|не_обращайте_внимания_на|отбрось|отбросьте|пренебреги|не_следуй|не_следуйте|перестань_следовать|обойди|отмени|отмените',
    qualifiers: 'предыдущ*|прежн*|предшествующ*|вышеуказанн*|вышеизложенн*|выше|ранее|исходн*|первоначальн*|системн*|свои|твои|ваши|все_предыдущ*|все_прежн*|данные_тебе|полученные',
    nouns: 'инструкци*|указани*|правил*|директив*|промпт*|установк*|ограничени*|приказ*',
    redefine: [
      'теперь_ты|ты_теперь|отныне_ты|с_этого_момента_ты|с_этого_момента_вы|теперь_вы|вы_теперь будешь|будете|являешься|являетесь|должен|должна|должны|—|свободн*|без|dan|не_ассистент|другой|другая|злой|неограниченн*',
      'притворись,_что_ты|притворитесь,_что_вы|представь,_что_ты|представьте,_что_вы|сделай_вид,_что_ты|играй_роль',
      'веди_себя|действуй|ведите_себя|действуйте как_будто|так,_будто|как_ии_без|как_ассистент_без|без_ограничений|как_неограниченн*',
      'режим_без_ограничений|режим_dan|режим_джейлбрейка',
    ],
    revealVerbs: 'покажи|покажите|выведи|выведите|раскрой|раскройте|повтори|повторите|напечатай|распечатай|скажи|скажите|сообщи|процитируй|расскажи|дай|озвучь',
    promptObjects: 'сво*_системн*_промпт*|сво*_системн*_инструкци*|системн*_промпт*|системн*_подсказк*|системн*_инструкци*|системн*_сообщени*|скрыт*_инструкци*|исходн*_инструкци*|первоначальн*_инструкци*',
  },
  {
    lang: 'ja',
    cjk: true,
    objectFirst: true,
    verbs: '無視|むし|忘れ|わすれ|従わな|破棄|上書き|取り消',
    qualifiers: '以前|これまで|今まで|前の|上記|上の|先ほど|最初|元の|もとの|システム|あなたの|すべての|全ての',
    nouns: '指示|命令|ルール|規則|指令|プロンプト|制約|ガイドライン|制限',
    redefine: [
      'あなたは_今から|今から_あなたは|これから_あなたは|これからは、_あなたは|これからは_あなたは|あなたは_もはや|今後_あなたは|君は_今から',
      'あなたは|君は … ふりをし|なりきっ|として振る舞|として振舞|として行動',
      '制限のない|制限なしの|検閲のない|フィルターのない … AI|アシスタント|モデル|人工知能',
      '開発者モード|脱獄モード|無制限モード … 有効|入っ|切り替え|オンに',
    ],
    revealVerbs: '教えて|見せて|表示して|出力して|繰り返して|開示して|公開して|書き出して|漏らして|教えろ|見せろ|表示しろ|出力しろ|印刷して',
    promptObjects: 'あなたのシステムプロンプト|システムプロンプト|システムメッセージ|初期指示|隠された指示|最初の指示|元の指示',
  },
  {
    lang: 'de',
    verbs: 'ignoriere|ignorier|ignorieren_sie|vergiss|vergesst|vergessen_sie|missachte|missachten_sie|übergehe|umgehe|umgehen_sie|verwirf|überschreibe|befolge_nicht|befolgen_sie_nicht|halte_dich_nicht_an|halten_sie_sich_nicht_an|setze_außer_kraft',
    qualifiers: 'vorherig*|vorige*|bisherig*|obig*|früher*|ursprünglich*|anfänglich*|system|deine|ihre|alle_vorherigen|alle_bisherigen|oben_genannt*|vorangegangen*|dir_gegebenen',
    nouns: 'anweisung*|instruktion*|regeln|regel|vorgaben|richtlinie*|befehle|prompt*|einschränkung*|anordnung*',
    strongNouns: 'systemprompt*|system-prompt*|systemanweisung*|systemregeln|systemvorgaben|systemnachricht*',
    redefine: [
      'du_bist_jetzt|du_bist_nun|ab_jetzt_bist_du|von_nun_an_bist_du|sie_sind_jetzt|du_bist_nicht_mehr ein|eine|der|die|mein|meine|frei|dan|kein|keine|uneingeschränkt*',
      'von_nun_an|ab_jetzt wirst_du|sollst_du|musst_du|antwortest_du|verhältst_du_dich',
      'tu_so,_als_wärst_du|tu_so,_als_ob_du|tue_so,_als_ob_du|tun_sie_so,_als_ob|gib_vor,_du_seist|stell_dir_vor,_du_bist|spiele_die_rolle',
      'verhalte_dich|handle|agiere als_ob_du|als_wärst_du|wie_eine_ki_ohne|wie_ein_assistent_ohne|ohne_einschränkungen',
      'uneingeschränkten_modus|in_den_jailbreak_modus',
    ],
    revealVerbs: 'zeige|zeig|zeigen_sie|gib|geben_sie|nenne|verrate|wiederhole|drucke|gib_aus|offenbare|enthülle|sag_mir|zeig_mir|gib_mir|nenn_mir',
    promptObjects: 'deinen_system-prompt|deinen_systemprompt|deine_systemanweisungen|deine_systemnachricht|ihren_systemprompt|den_systemprompt|den_system-prompt|die_systemanweisungen|deine_ursprünglichen_anweisungen|deine_versteckten_anweisungen|deine_anfänglichen_anweisungen|die_versteckten_anweisungen',
  },
  {
    lang: 'fr',
    verbs: 'ignore|ignorez|oublie|oubliez|outrepasse|outrepassez|ne_tiens_pas_compte_de|ne_tenez_pas_compte_de|ne_tiens_plus_compte_de|ne_tenez_plus_compte_de|ne_tiens_pas_compte_des|ne_tenez_pas_compte_des|fais_abstraction_de|faites_abstraction_de|fais_abstraction_des|faites_abstraction_des|contourne|contournez|n\'obeis_plus_a|n\'obeissez_plus_a',
    qualifiers: 'precedent*|anterieur*|ci-dessus|du_systeme|systeme|initial*|d\'origine|originales|tes|vos|donnees|recues',
    nouns: 'instructions|consignes|regles|directives|indications|prompt|restrictions|ordres',
    redefine: [],
    revealVerbs: 'revele|revelez|affiche|affichez|montre|montrez|montre-moi|repete|repetez|donne-moi|ecris|imprime',
    promptObjects: 'ton_prompt|ton_invite|tes_instructions|tes_consignes|votre_prompt|vos_instructions|le_prompt_systeme|le_prompt_du_systeme|les_instructions_systeme|les_instructions_initiales|les_instructions_cachees',
  },
  {
    lang: 'ko',
    objectFirst: true,
    verbs: '무시*|잊어*|잊고|잊으*|따르지_마*|따르지_말*|무효화*|우회*|덮어쓰*|버려*|버리고',
    qualifiers: '이전*|앞의|앞서*|위의|위에*|기존의|처음*|원래*|시스템*|당신의|너의|네|지금까지*|초기*|이전의_모든|앞의_모든|위의_모든|기존의_모든|모든_이전*',
    nouns: '지시*|지침*|명령*|규칙*|프롬프트*|가이드라인*|제한*|제약*',
    redefine: [
      '지금부터_너는|지금부터_당신은|이제부터_너는|이제부터_당신은|앞으로_너는|앞으로_당신은|이제_너는|이제_당신은|넌_이제|너는_이제|당신은_이제',
      '제한_없는|제한이_없는|필터_없는|검열_없는|무제한 + ai|인공지능|어시스턴트|모델|챗봇',
      '인_척*|척을_해*|역할을_해*|처럼_행동*',
    ],
    revealVerbs: '보여줘*|보여_줘*|보여주세요|보여_주세요|출력해*|출력하라|알려줘*|알려_줘*|알려주세요|공개해*|공개하라|말해줘*|말해*|반복해*|누설해*',
    promptObjects: '시스템_프롬프트*|시스템프롬프트*|시스템_메시지*|초기_지시*|숨겨진_지시*|원래_지시*|당신의_지시*|너의_지시*',
  },
  {
    lang: 'it',
    verbs: 'ignora|ignori|ignorate|dimentica|dimentichi|dimenticate|trascura|tralascia|scarta|non_seguire|non_segua|smetti_di_seguire|aggira|annulla',
    qualifiers: 'precedent*|anterior*|di_sopra|sopra|del_sistema|di_sistema|original*|inizial*|tue|tuoi|sue|suoi|ricevute|che_ti_sono_state_date',
    nouns: 'istruzion*|regole|regola|direttive|indicazioni|linee_guida|prompt|restrizioni|ordini|comandi|consegne',
    redefine: [
      'ora_sei|adesso_sei|non_sei_piu un|una|il|la|lo|mio|mia|libero|libera|dan',
      'da_ora_in_poi|d\'ora_in_poi|a_partire_da_ora|d\'ora_in_avanti tu? sei|sarai|devi|dovrai|risponderai|agirai',
      'fingi|fai_finta|immagina di_essere|che_tu_sia',
      'agisci|comportati come_se_fossi|come_se_non_avessi|come_un_assistente_senza|come_un\'ia_senza',
      'modalita_senza_restrizioni|modalita_senza_filtri|modalita_jailbreak|modalita_dan',
    ],
    revealVerbs: 'rivela|mostra|mostrami|stampa|ripeti|dimmi|scrivi|condividi|svela',
    promptObjects: 'il_tuo_prompt|le_tue_istruzioni|il_prompt_di_sistema|il_prompt_del_sistema|il_messaggio_di_sistema|le_istruzioni_di_sistema|le_istruzioni_iniziali|le_istruzioni_nascoste|le_istruzioni_originali|il_tuo_prompt_di_sistema',
  },
  {
    lang: 'tr',
    objectFirst: true,
    verbs: 'yok_say*|görmezden_gel*|unut|unutun|dikkate_alma|dikkate_almayın|göz_ardı_et*|uyma|uymayın|geçersiz_kıl*|boşver|bırak',
    qualifiers: 'önceki|yukarıdaki|önceden_verilen|daha_önceki|ilk|orijinal|asıl|sistem|senin|sana_verilen|tüm_önceki|bütün_önceki',
    nouns: 'talimat*|kural*|yönerge*|istem*|prompt*|direktif*|kısıtlama*|emir*',
    redefine: [
      'artık_sen|sen_artık|bundan_sonra_sen|şu_andan_itibaren_sen|bundan_böyle_sen|şimdi_sen \\S',
      'kısıtlamasız|sınırsız|filtresiz|sansürsüz … gibi_davran*|gibi_hareket_et*|rolüne_bürün*|rolünü_oyna*',
      'mış_gibi_yap|muş_gibi_yap|miş_gibi_yap|müş_gibi_yap',
    ],
    revealVerbs: 'göster|gösterin|yazdır|yazdırın|açıkla|açıklayın|tekrarla|tekrarlayın|söyle|söyleyin|paylaş|paylaşın|ifşa_et|ifşa_edin',
    promptObjects: 'sistem_istem*|sistem_prompt*|sistem_mesaj*|sistem_talimat*|gizli_talimat*|ilk_talimat*|orijinal_talimat*',
  },
  {
    lang: 'id',
    verbs: 'abaikan|lupakan|jangan_ikuti|jangan_patuhi|kesampingkan|timpa|langgar',
    qualifiers: 'sebelumnya|terdahulu|di_atas|sistem|awal|asli|anda|kamu|mu',
    nouns: 'instruksi|perintah|aturan|petunjuk|arahan|pedoman|prompt|batasan',
    redefine: [
      'sekarang_kamu_adalah|sekarang_anda_adalah|mulai_sekarang,_kamu|mulai_sekarang,_anda|kamu_sekarang_adalah|anda_sekarang_adalah|kamu_bukan_lagi',
      'berpura-pura§lah|berpura-pura_menjadi|berpura-pura_bahwa|bertindaklah_seolah|bertindaklah_sebagai_ai_tanpa|bertindak_seolah-olah',
    ],
    revealVerbs: 'tunjukkan|tampilkan|ungkapkan|cetak|ulangi|beritahu_saya|beri_tahu_saya|sebutkan|bagikan|bocorkan',
    promptObjects: 'prompt_sistem|pesan_sistem|instruksi_sistem|instruksi_tersembunyi|instruksi_awal|instruksi_asli|system_prompt',
  },
  {
    lang: 'vi',
    verbs: 'bỏ_qua|phớt_lờ|lờ_đi|quên_đi|quên|đừng_tuân_theo|không_tuân_theo_nữa|đừng_làm_theo|gạt_bỏ|vượt_qua',
    qualifiers: 'trước|trước_đó|trước_đây|ở_trên|phía_trên|hệ_thống|ban_đầu|gốc|của_bạn|cũ',
    nouns: 'hướng_dẫn|chỉ_dẫn|chỉ_thị|mệnh_lệnh|quy_tắc|quy_định|lời_nhắc|prompt|giới_hạn|hạn_chế',
    redefine: [
      'bây_giờ_bạn_là|từ_giờ_bạn_là|từ_bây_giờ,_bạn|từ_nay,_bạn|kể_từ_bây_giờ,_bạn|bạn_không_còn_là',
      'hãy_giả_vờ|giả_vờ_bạn_là|giả_vờ_rằng_bạn|hãy_đóng_vai|hãy_hành_động_như|hành_động_như_một_ai_không',
    ],
    revealVerbs: 'tiết_lộ|hiển_thị|in_ra|cho_tôi_xem|cho_tôi_biết|lặp_lại|nói_cho_tôi|chia_sẻ',
    promptObjects: 'lời_nhắc_hệ_thống|prompt_hệ_thống|system_prompt|thông_điệp_hệ_thống|hướng_dẫn_hệ_thống|chỉ_dẫn_ẩn|hướng_dẫn_ẩn|hướng_dẫn_ban_đầu',
  },
  {
    lang: 'pl',
    verbs: 'zignoruj|zignorujcie|ignoruj|ignorujcie|zapomnij|zapomnijcie|pomiń|nie_przestrzegaj|nie_stosuj_się_do|porzuć|odrzuć|obejdź|pomijaj',
    qualifiers: 'poprzedni*|wcześniejsz*|powyższ*|wyżej|systemow*|pierwotn*|początkow*|oryginaln*|twoje|swoje|dotychczasow*|wszystkie_poprzednie',
    nouns: 'instrukcj*|polece*|reguł*|zasad*|wytyczn*|dyrektyw*|prompt*|ograniczeni*|rozkaz*',
    redefine: [
      'teraz_jesteś|od_teraz_jesteś|od_teraz_będziesz|od_tej_pory_jesteś|od_tej_pory_będziesz|od_tej_pory_musisz|nie_jesteś_już',
      'udawaj,_że|wciel_się_w|zachowuj_się_jak|działaj_jak_ai_bez|działaj_jak_asystent_bez',
    ],
    revealVerbs: 'pokaż|wyświetl|wypisz|ujawnij|powtórz|powiedz|podaj|wydrukuj|zdradź',
    promptObjects: 'swój_prompt_systemowy|twój_prompt_systemowy|prompt_systemow*|systemow*_prompt*|komunikat_systemow*|instrukcj*_systemow*|ukryt*_instrukcj*|początkow*_instrukcj*|oryginaln*_instrukcj*',
  },
  {
    lang: 'nl',
    verbs: 'negeer|vergeet|veronachtzaam|volg_niet|houd_je_niet_aan|overschrijf|omzeil|laat_varen',
    qualifiers: 'vorige|voorgaande|eerdere|bovenstaande|oorspronkelijke|initiële|systeem|je|jouw|uw|alle_vorige|alle_eerdere',
    nouns: 'instructies|instructie|regels|richtlijnen|opdrachten|aanwijzingen|prompt|beperkingen',
    strongNouns: 'systeemprompt|systeeminstructies',
    redefine: [
      'je_bent_nu|jij_bent_nu|u_bent_nu|vanaf_nu_ben_je|je_bent_niet_langer een|de|het|mijn|vrij|dan|onbeperkt*|ongefilterd*',
      'vanaf_nu moet_je|zul_je|ga_je|ben_je|antwoord_je',
      'doe_alsof_je|doe_alsof_jij|gedraag_je_als|speel_de_rol_van',
    ],
    revealVerbs: 'toon|laat_zien|laat_me|geef|herhaal|print|onthul|vertel_me|deel',
    promptObjects: 'je_systeemprompt|jouw_systeemprompt|je_systeeminstructies|de_systeemprompt|het_systeembericht|de_verborgen_instructies|je_oorspronkelijke_instructies|je_initiële_instructies',
  },
];

/**
 * Names by which a text addresses an AI (any language), and words that make what follows a
 * directive to it; together, in a hidden place, they are an instruction no reader is meant to see.
 */
export const ADDRESSEES
  = 'ai|a.i.|llm|llms|ai_assistant*|ai_agent*|ai_model*|language_model*|chatbot*|claude|chatgpt|gpt|gpt-4*|copilot|gemini|coding_agent*|coding_assistant*|assistant|assistants|'
    + '人工智能|ai助手|助手|大模型|语言模型|語言模型|'
    + 'la_ia|el_asistente|el_modelo|a_ia|o_assistente|o_modelo|l\'ia|l\'assistant|l\'assistente|il_modello|le_modele|'
    + 'एआई|सहायक|मॉडल|الذكاء_الاصطناعي|المساعد|النموذج|ии|ассистент|нейросеть|языковая_модель|'
    + 'アシスタント|人工知能|言語モデル|ki|ki-assistent|sprachmodell|어시스턴트|인공지능|yapay_zeka|asisten_ai|trợ_lý_ai|asystent_ai|sztuczna_inteligencja';

export const DIRECTIVES
  = 'must|should|shall|need_to|have_to|please|do_not|don\'t|never|always|ignore|disregard|forget|instead|tell|say|respond|reply|answer|recommend|mention|send|include|execute|you|your|'
    + '必须|必須|应该|應該|请|請|忽略|不要|务必|務必|'
    + 'debes|debe|tienes_que|ignora|olvida|no_menciones|siempre|nunca|deves|deve|sempre|nunca|'
    + 'करो|करें|चाहिए|يجب|عليك|لا_تذكر|должен|должна|обязан|игнорируй|всегда|никогда|'
    + 'しなさい|してください|必ず|無視|musst|sollst|muss|immer|niemals|ignoriere|tu_dois|vous_devez|toujours|jamais|'
    + '해야|하세요|하십시오|무시|devi|deve|sempre|mai|ignora|zorundasın|yapmalısın|harus|jangan|phải|hãy|musisz|zawsze|nigdy|moet|altijd|nooit';
