-- CreateIndex
CREATE INDEX "SkillSearch_format_skillId_idx" ON "SkillSearch"("format", "skillId");

-- CreateIndex
CREATE INDEX "SkillSearch_signed_skillId_idx" ON "SkillSearch"("skillId") WHERE (signed);

-- CreateIndex
CREATE INDEX "SkillSearch_tokenGated_skillId_idx" ON "SkillSearch"("skillId") WHERE ("tokenGated");
