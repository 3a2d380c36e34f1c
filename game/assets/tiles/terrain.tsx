<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="56" tileheight="64" tilecount="16" columns="16">
 <image source="terrain.png" width="896" height="64"/>
 <tile id="0" type="plain">
  <properties>
   <property name="terrain" value="plain"/>
  </properties>
 </tile>
 <tile id="1" type="steppe">
  <properties>
   <property name="terrain" value="steppe"/>
  </properties>
 </tile>
 <tile id="2" type="farmland">
  <properties>
   <property name="terrain" value="farmland"/>
  </properties>
 </tile>
 <tile id="3" type="road">
  <properties>
   <property name="terrain" value="road"/>
  </properties>
 </tile>
 <tile id="4" type="forest">
  <properties>
   <property name="terrain" value="forest"/>
  </properties>
 </tile>
 <tile id="5" type="hills">
  <properties>
   <property name="terrain" value="hills"/>
  </properties>
 </tile>
 <tile id="6" type="mountain">
  <properties>
   <property name="terrain" value="mountain"/>
  </properties>
 </tile>
 <tile id="7" type="valley">
  <properties>
   <property name="terrain" value="valley"/>
  </properties>
 </tile>
 <tile id="8" type="river">
  <properties>
   <property name="terrain" value="river"/>
  </properties>
 </tile>
 <tile id="9" type="ford">
  <properties>
   <property name="terrain" value="ford"/>
  </properties>
 </tile>
 <tile id="10" type="marsh">
  <properties>
   <property name="terrain" value="marsh"/>
  </properties>
 </tile>
 <tile id="11" type="loess">
  <properties>
   <property name="terrain" value="loess"/>
  </properties>
 </tile>
 <tile id="12" type="village">
  <properties>
   <property name="terrain" value="village"/>
  </properties>
 </tile>
 <tile id="13" type="town">
  <properties>
   <property name="terrain" value="town"/>
  </properties>
 </tile>
 <tile id="14" type="fortress">
  <properties>
   <property name="terrain" value="fortress"/>
  </properties>
 </tile>
 <tile id="15" type="palace">
  <properties>
   <property name="terrain" value="palace"/>
  </properties>
 </tile>
</tileset>
